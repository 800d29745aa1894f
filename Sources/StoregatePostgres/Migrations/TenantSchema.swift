import Foundation

/// The name of a tenant's schema: `t_` and 26 lowercase base32 characters of 128 random bits. It is made
/// by the server, never taken from input, and checked again whenever it is read back, so it is the one
/// piece of SQL text that is not a bound parameter.
public struct TenantSchema: Sendable, Hashable, CustomStringConvertible {
    public let name: String

    public init(validating name: String) throws(DatabaseError) {
        guard name.utf8.count == 28, name.hasPrefix("t_"), name.utf8.dropFirst(2).allSatisfy({ Self.alphabet.contains($0) }) else {
            throw .invalidSchemaName
        }
        self.name = name
    }

    private init(generated name: String) { self.name = name }

    public static func generate() -> TenantSchema {
        var generator = SystemRandomNumberGenerator()
        var bits = (UInt64.random(in: .min ... .max, using: &generator), UInt64.random(in: .min ... .max, using: &generator))
        var chars: [UInt8] = []
        for _ in 0..<26 {
            chars.append(alphabet[Int(bits.1 & 31)])
            bits.1 = bits.1 >> 5 | (bits.0 & 31) << 59
            bits.0 >>= 5
        }
        return TenantSchema(generated: "t_" + String(decoding: chars, as: UTF8.self))
    }

    /// The quoted identifier to splice into SQL.
    public var sql: String { "\"\(name)\"" }
    public var description: String { name }

    static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
}
