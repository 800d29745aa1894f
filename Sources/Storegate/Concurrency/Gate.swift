import Synchronization

/// Lets at most `concurrent` callers through at once and at most `waiting` wait for their turn, in the order
/// they came; a caller past both is refused at once (`Gate.Full`), so that a storm of requests is answered
/// quickly instead of queueing without end. A refused caller waited for nothing.
public final class Gate: Sendable {
    /// The gate and its queue are full: nothing was done.
    public struct Full: Error, Sendable {}

    private struct State {
        var inside = 0
        var queue: [CheckedContinuation<Bool, Never>] = []
        var head = 0
        var waiting: Int { queue.count - head }
    }

    public let concurrent: Int
    public let waiting: Int
    private let state = Mutex(State())

    public init(concurrent: Int, waiting: Int) {
        precondition(concurrent > 0 && waiting >= 0)
        self.concurrent = concurrent
        self.waiting = waiting
    }

    /// Whether a caller coming now would be refused: a look that saves work before `run`, not a promise.
    public var isFull: Bool { state.withLock { $0.inside >= concurrent && $0.waiting >= waiting } }

    /// Runs `body` once the gate lets the caller in; throws `Full` without running it when the gate and its
    /// queue are full. A waiting caller is not cancelled: a place comes as soon as one ahead of it is done.
    public func run<T>(_ body: () async throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async throws(Full) {
        let entered = state.withLock { state -> Bool in
            guard state.inside < concurrent else { return false }
            state.inside += 1
            return true
        }
        if entered { return }
        let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let now = state.withLock { state -> Bool? in
                // A place may have come free since the first look.
                if state.inside < concurrent {
                    state.inside += 1
                    return true
                }
                guard state.waiting < waiting else { return false }
                state.queue.append(continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
        if !admitted { throw Full() }
    }

    /// Hands the caller's place to the next waiting one, or frees it.
    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard state.head < state.queue.count else {
                state.inside -= 1
                return nil
            }
            let next = state.queue[state.head]
            state.head += 1
            if state.head == state.queue.count {
                state.queue.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return next
        }
        next?.resume(returning: true)
    }
}
