import Dispatch
import HummingbirdBcrypt

/// bcrypt, off Swift's cooperative thread pool. A hash takes a few hundred milliseconds of CPU (cost 12): run
/// on the cooperative pool (two threads on two cores) it would stop every other request while it runs. Here
/// hashes run on threads of their own, at most `threads` at once (one by default: a storm of sign-ins takes
/// at most one core), and at most `queue` wait; past that a caller is refused at once (`Gate.Full`).
public final class PasswordHasher: Sendable {
    public struct Settings: Sendable {
        /// bcrypt's cost (2^cost rounds).
        public var cost: UInt8 = 12
        /// Hashes computed at once.
        public var threads = 1
        /// Hashes that may wait for a thread; more are refused.
        public var queue = 16

        public init() {}
    }

    public let settings: Settings
    private let gate: Gate
    private let work = DispatchQueue(label: "storegate.bcrypt", qos: .utility, attributes: .concurrent)
    /// A hash to check unknown people's passwords against, so that they take as long as known ones. It exists
    /// before the first sign-in: made at cost 12 from a random secret that was then thrown away (it matches no
    /// password anyone knows, and a match would not sign anyone in: there is no person), or made now at
    /// another cost.
    public let decoy: String

    static let decoyAtCost12 = "$2b$12$EAX4szTK7QKOxC6dHrtYzuxMfM8RXvSUEzxgHQRdD6RG8fsAcEbB6"

    public init(_ settings: Settings = Settings()) {
        self.settings = settings
        self.gate = Gate(concurrent: settings.threads, waiting: settings.queue)
        self.decoy = settings.cost == 12 ? Self.decoyAtCost12 : Bcrypt.hash(Secret.token(), cost: settings.cost)
    }

    /// Whether a hash asked for now would be refused (a look, not a promise).
    public var isFull: Bool { gate.isFull }

    /// Whether `password` matches `hash`; throws `Gate.Full` when too many hashes wait already.
    public func verify(_ password: String, hash: String) async throws -> Bool {
        try await run { Bcrypt.verify(password, hash: hash) }
    }

    /// `password`'s bcrypt hash; throws `Gate.Full` when too many hashes wait already.
    public func hash(_ password: String) async throws -> String {
        let cost = settings.cost
        return try await run { Bcrypt.hash(password, cost: cost) }
    }

    private func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        try await gate.run {
            await withCheckedContinuation { continuation in
                work.async { continuation.resume(returning: body()) }
            }
        }
    }
}
