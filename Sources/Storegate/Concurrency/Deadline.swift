import Synchronization

/// What `race(until:_:)` throws when the deadline came first.
public struct DeadlinePassed: Error, Sendable {}

/// `body`'s value, or `DeadlinePassed` as soon as `deadline` passes. The body is then cancelled and not waited
/// for: a call that does not end when cancelled (a statement on a connection that closed under it, PostgresNIO
/// never answering it) must not hold its caller past the deadline. A task group would wait for it.
public func race<T: Sendable>(until deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let race = Race<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.pending.withLock { $0 = continuation }
            let work = Task {
                let result: Result<T, any Error>
                do { result = .success(try await body()) } catch { result = .failure(error) }
                race.pending.withLock { $0.take() }?.resume(with: result)
                race.tasks.withLock { $0.timer }?.cancel()
            }
            let timer = Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard let late = race.pending.withLock({ $0.take() }) else { return }
                work.cancel()
                late.resume(throwing: DeadlinePassed())
            }
            race.tasks.withLock { $0 = (work, timer) }
        }
    } onCancel: {
        let (work, timer) = race.tasks.withLock { $0 }
        work?.cancel()
        timer?.cancel()
    }
}

/// The work and the deadline racing to answer: whichever comes first takes the continuation.
private final class Race<T: Sendable>: Sendable {
    let pending = Mutex<CheckedContinuation<T, any Error>?>(nil)
    let tasks = Mutex<(work: Task<Void, Never>?, timer: Task<Void, Never>?)>((nil, nil))
}
