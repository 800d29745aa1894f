/// Wakes this process's job worker when a job was just added, so it runs now rather than at its next
/// poll. Shared by the services that add jobs and the worker that runs them.
final class JobSignal: Sendable {
    let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init() { (wakeups, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1)) }

    /// Wakes the worker; false once it stopped for good.
    @discardableResult func poke() -> Bool {
        if case .terminated = wake.yield() { return false }
        return true
    }

    func finish() { wake.finish() }
}
