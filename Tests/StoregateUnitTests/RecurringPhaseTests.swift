import Foundation
import Testing

@testable import Storegate

/// Recurring jobs keep each their own point of the interval: apart from each other, the same run after run.
@Suite struct RecurringPhaseTests {
    static let every: TimeInterval = 900
    static let now = Date(timeIntervalSince1970: 1_800_000_123)

    @Test func theNextRunIsHalfToOneAndAHalfIntervalsAwayAtTheKeysPoint() {
        for key in ["a/Sandbox", "b/Production", UUID().uuidString] {
            let next = RecurringPhase.next(after: Self.now, every: Self.every, key: key)
            let gap = next.timeIntervalSince(Self.now)
            #expect(gap >= Self.every / 2 && gap < Self.every * 1.5, "\(key): \(gap) s")
            let after = RecurringPhase.next(after: next, every: Self.every, key: key)
            #expect(after.timeIntervalSince(next) == Self.every, "run after run at the same point")
        }
    }

    @Test func manyKeysSpreadOverTheInterval() {
        // 10,000 apps' sweeps, each scheduled from the same moment: every minute of the 15 holds some.
        let minutes = Set(
            (0..<10_000).map { index in
                Int(RecurringPhase.next(after: Self.now, every: Self.every, key: "app-\(index)/Production").timeIntervalSince1970) / 60
            })
        #expect(minutes.count >= 15, "\(minutes.count) minutes")
    }
}
