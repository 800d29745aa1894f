import HummingbirdBcrypt
import Testing

@testable import Storegate

/// The gate in front of password hashing and sign-in counting: so many at once, so many waiting, the rest
/// refused at once; and the hasher's decoy, there before the first sign-in.
@Suite struct GateTests {
    @Test func aFullGateRefusesAtOnceAndAWaitingCallerGetsTheNextPlace() async throws {
        let gate = Gate(concurrent: 1, waiting: 1)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let (entered, enterer) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await gate.run {
                enterer.yield()
                for await _ in release { break }
            }
        }
        for await _ in entered { break }
        #expect(!gate.isFull, "one inside, no one waiting")
        let second = Task { try await gate.run { "second ran" } }
        while !gate.isFull { await Task.yield() }
        await #expect(throws: Gate.Full.self) { try await gate.run { "third ran" } }
        releaser.yield()
        try await first.value
        #expect(try await second.value == "second ran")
        #expect(try await gate.run { "after" } == "after", "every place was given back")
    }

    @Test func theDecoyIsABcryptHashAtTheCostInUse() throws {
        let hasher = PasswordHasher()
        #expect(hasher.settings.cost == 12)
        #expect(hasher.decoy.hasPrefix("$2b$12$") && hasher.decoy.utf8.count == 60)
        #expect(!Bcrypt.verify("", hash: hasher.decoy))
        var cheap = PasswordHasher.Settings()
        cheap.cost = 4
        #expect(PasswordHasher(cheap).decoy.hasPrefix("$2b$04$"))
    }

    @Test func hashesRunOffTheCooperativePoolAndVerify() async throws {
        var cheap = PasswordHasher.Settings()
        cheap.cost = 4
        let hasher = PasswordHasher(cheap)
        let hash = try await hasher.hash("correct horse battery")
        #expect(try await hasher.verify("correct horse battery", hash: hash))
        #expect(try await !hasher.verify("wrong horse battery", hash: hash))
    }
}
