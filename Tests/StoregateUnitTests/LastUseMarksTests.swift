import Foundation
import Logging
import Synchronization
import Testing

@testable import Storegate

/// Last-use marks written behind requests: every key marked is written once, many to a statement, one
/// writer at a time; a failed write is dropped and the next marks are written.
@Suite struct LastUseMarksTests {
    @Test func marksArriveInFewWritesOneAtATimeAndAFailureIsDropped() async throws {
        let written = Mutex<[[UUID]]>([])
        let writing = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)
        let failNext = Atomic<Bool>(false)
        let marks = LastUseMarks(logger: Logger(label: "test")) { ids in
            if writing.add(1, ordering: .sequentiallyConsistent).newValue > 1 { overlapped.store(true, ordering: .sequentiallyConsistent) }
            defer { writing.subtract(1, ordering: .sequentiallyConsistent) }
            try await Task.sleep(for: .milliseconds(5))
            if failNext.exchange(false, ordering: .sequentiallyConsistent) { throw CancellationError() }
            written.withLock { $0.append(ids) }
        }
        let ids = (0..<2_500).map { _ in UUID() }
        await withTaskGroup(of: Void.self) { group in
            for slice in stride(from: 0, to: ids.count, by: 100) {
                group.addTask { for id in ids[slice..<slice + 100] { marks.mark(id) } }
            }
        }
        await marks.settled()
        let writes = written.withLock { $0 }
        #expect(Set(writes.joined()) == Set(ids) && writes.joined().count == ids.count, "each key written once")
        #expect(writes.allSatisfy { $0.count <= LastUseMarks.batch } && writes.count < ids.count / 10, "\(writes.count) writes")
        let overlaps = overlapped.load(ordering: .sequentiallyConsistent)
        #expect(!overlaps, "one writer at a time")

        failNext.store(true, ordering: .sequentiallyConsistent)
        let dropped = UUID()
        marks.mark(dropped)
        await marks.settled()
        let later = UUID()
        marks.mark(later)
        await marks.settled()
        let after = written.withLock { Array($0.dropFirst(writes.count).joined()) }
        #expect(after == [later], "the failed mark is dropped; the next is written")
    }
}
