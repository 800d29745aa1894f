import Foundation

/// Base64url without padding (RFC 7515 §2), as JWS uses it. Byte-level: it sits on the signing and
/// verification hot paths, where string replacement would cost more than the signature.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, symbol) in alphabet.enumerated() { table[Int(symbol)] = UInt8(value) }
        return table
    }()

    public static func encode(_ data: some DataProtocol) -> String {
        var out = [UInt8]()
        append(Array(data), to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the encoding of `bytes` to `out` (a JWS is built in one buffer).
    static func append(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.reserveCapacity(out.count + (bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(alphabet[Int(group >> 6 & 63)])
            out.append(alphabet[Int(group & 63)])
            index += 3
        }
        switch bytes.count - index {
        case 1:
            let group = UInt32(bytes[index]) << 16
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
        case 2:
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(alphabet[Int(group >> 6 & 63)])
        default: break
        }
    }

    /// Decodes base64url with or without trailing padding; nil for anything else.
    public static func decode(_ text: some StringProtocol) -> Data? { decode(bytes: Array(text.utf8)) }

    /// Decodes base64url given as its ASCII bytes (a slice of a JWS, say), with or without trailing padding.
    public static func decode(bytes symbols: some BidirectionalCollection<UInt8>) -> Data? {
        var count = symbols.count
        if symbols.last == UInt8(ascii: "=") {
            guard count % 4 == 0 else { return nil }
            count -= symbols.dropLast().last == UInt8(ascii: "=") ? 2 : 1
        }
        guard count % 4 != 1 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits: UInt32 = 0
        var remaining = count
        for symbol in symbols {
            guard remaining > 0 else { break }
            remaining -= 1
            let value = values[Int(symbol)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> bits))
            }
        }
        return Data(out)
    }
}
