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
        let bytes = withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) }
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
