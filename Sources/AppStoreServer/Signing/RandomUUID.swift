import Foundation

extension UUID {
    /// A random (version 4) UUID from the system's cryptographic generator (`getrandom` on Linux).
    /// `UUID()` opens `/dev/urandom` for every call on Linux, which showed up on the offer-signing path.
    public static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var high = generator.next() as UInt64
        var low = generator.next() as UInt64
        high = high & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000  // version 4 in byte 6's high nibble
        low = low & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000  // RFC 4122 variant in byte 8
        // Two big-endian words are the UUID's sixteen bytes in order (the same size and layout as uuid_t).
        return UUID(uuid: unsafeBitCast((high.bigEndian, low.bigEndian), to: uuid_t.self))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The lowercase 8-4-4-4-12 form Apple's formats use, written directly: `uuidString` formats through
    /// C's printf on Linux and `lowercased()` then copies it, which showed on the offer-signing path.
    public var lowercasedString: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var i = 0
                for (n, byte) in bytes.enumerated() {
                    if n == 4 || n == 6 || n == 8 || n == 10 {
                        out[i] = UInt8(ascii: "-")
                        i += 1
                    }
                    out[i] = Self.hexDigits[Int(byte >> 4)]
                    out[i + 1] = Self.hexDigits[Int(byte & 0xF)]
                    i += 2
                }
                return i
            }
        }
    }
}
