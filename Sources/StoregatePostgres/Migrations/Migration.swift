import Crypto
import Foundation

/// One versioned step of a schema's chain. Statements name their schema through `{{schema}}`, which is
/// replaced by the quoted, server-generated identifier; they never take values from input.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let statements: [String]
    /// Checksums the migration had before edits whose difference a later migration makes up for.
    public let formerChecksums: [String]
    /// SHA-256 of the statements: a ledger row whose checksum differs means the chain was edited after it ran.
    /// Worked out once (the chains are static), not for every schema a migration is checked against.
    public let checksum: String

    public init(_ version: Int, _ name: String, _ statements: [String], formerChecksums: [String] = []) {
        self.version = version
        self.name = name
        self.statements = statements
        self.formerChecksums = formerChecksums
        self.checksum = SHA256.hash(data: Data(statements.joined(separator: "\n;\n").utf8)).map { String(format: "%02x", $0) }.joined()
    }

    func rendered(schema: String) -> [String] {
        statements.map { $0.replacingOccurrences(of: "{{schema}}", with: schema) }
    }
}

/// An ordered chain of migrations with strictly increasing versions.
public struct MigrationChain: Sendable {
    public let migrations: [Migration]

    public init(_ migrations: [Migration]) {
        precondition(zip(migrations, migrations.dropFirst()).allSatisfy { $0.version < $1.version }, "migration versions must increase")
        self.migrations = migrations
    }

    public var latestVersion: Int { migrations.last?.version ?? 0 }

    public func appending(_ migration: Migration) -> MigrationChain { MigrationChain(migrations + [migration]) }
}
