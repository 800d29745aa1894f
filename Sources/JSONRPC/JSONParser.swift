/// A strict RFC 8259 parser: rejects invalid UTF-8, lone surrogates, duplicate member names, trailing garbage and
/// nesting deeper than `maxDepth`. Numbers are validated and kept as text.
public struct JSONParser {
    public struct Failure: Error, Equatable {
        public let offset: Int
        public let reason: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private let maxDepth: Int

    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = 64) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes), maxDepth: maxDepth)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.fail("unexpected data after the JSON value") }
        return value
    }

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func fail(_ reason: String) -> Failure { Failure(offset: index, reason: reason) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let c = current, c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        for byte in literal.utf8 {
            guard current == byte else { throw fail("invalid literal") }
            index += 1
        }
        return value
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= maxDepth else { throw fail("nesting too deep") }
        switch current {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case .some(let c) where c == UInt8(ascii: "-") || (0x30...0x39).contains(c): return try parseNumber()
        case nil: throw fail("unexpected end of input")
        default: throw fail("unexpected character")
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let keyOffset = index
            let key = try parseString()
            // A repeated member would let two readers of the same request see different values: refused.
            if members.contains(where: { $0.key == key }) {
                throw Failure(offset: keyOffset, reason: "duplicate member name \(String(decoding: JSONValue.string(key).serialized, as: UTF8.self))")
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw fail("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            default: throw fail("expected ',' or ']'")
            }
        }
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = index
        func digits(_ p: inout JSONParser) -> Int {
            var n = 0
            while let c = p.current, (0x30...0x39).contains(c) {
                p.index += 1
                n += 1
            }
            return n
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else if digits(&self) == 0 {
            throw fail("invalid number")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw fail("invalid number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw fail("invalid number") }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = current else { throw fail("unexpected end of input") }
            let digit: UInt32
            switch c {
            case 0x30...0x39: digit = UInt32(c - 0x30)
            case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseString() throws(Failure) -> String {
        index += 1
        // Most names and values are plain ASCII up to the closing quote: taken in one piece.
        let start = index
        while index < bytes.count, bytes[index] >= 0x20, bytes[index] < 0x80, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
            index += 1
        }
        if current == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: bytes[start..<index - 1], as: UTF8.self)
        }
        var scalars = String(decoding: bytes[start..<index], as: UTF8.self).unicodeScalars
        while true {
            guard let c = current else { throw fail("unterminated string") }
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                index += 1
                guard let e = current else { throw fail("unterminated string") }
                index += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("lone surrogate in \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("lone surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(code) {
                        throw fail("lone surrogate in \\u escape")
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("invalid \\u escape") }
                    scalars.append(scalar)
                default: throw fail("invalid escape")
                }
            case 0..<0x20: throw fail("control character in string")
            case 0..<0x80:
                scalars.append(Unicode.Scalar(c))
                index += 1
            default:
                scalars.append(try decodeUTF8Scalar())
            }
        }
    }

    /// Decodes one multi-byte UTF-8 sequence, rejecting overlong forms, surrogates and truncation.
    private mutating func decodeUTF8Scalar() throws(Failure) -> Unicode.Scalar {
        let lead = bytes[index]
        let (length, minimum, initial): (Int, UInt32, UInt32) =
            switch lead {
            case 0xC2...0xDF: (2, 0x80, UInt32(lead & 0x1F))
            case 0xE0...0xEF: (3, 0x800, UInt32(lead & 0x0F))
            case 0xF0...0xF4: (4, 0x10000, UInt32(lead & 0x07))
            default: (0, 0, 0)
            }
        guard length > 0, index + length <= bytes.count else { throw fail("invalid UTF-8") }
        var code = initial
        for offset in 1..<length {
            let b = bytes[index + offset]
            guard b & 0xC0 == 0x80 else { throw fail("invalid UTF-8") }
            code = code << 6 | UInt32(b & 0x3F)
        }
        guard code >= minimum, code <= 0x10FFFF, let scalar = Unicode.Scalar(code) else { throw fail("invalid UTF-8") }
        index += length
        return scalar
    }
}
