import Foundation

/// A compact JWS (`header.payload.signature`) as its UTF-8 bytes, split where its two dots are, without
/// copying the parts: Apple's notifications run to several kilobytes, and every one is verified.
public struct CompactJWS: Sendable {
    let bytes: [UInt8]
    private let firstDot: Int
    private let secondDot: Int

    /// nil unless the text (surrounding ASCII whitespace aside) has exactly two dots; `parts` then says
    /// how many dot-separated parts it has.
    init?(_ text: String, parts: inout Int) {
        var bytes = Array(text.utf8)
        while let last = bytes.last, last.isASCIIWhitespace { bytes.removeLast() }
        let leading = bytes.prefix { $0.isASCIIWhitespace }.count
        if leading > 0 { bytes.removeFirst(leading) }
        var dots = (first: 0, second: 0, count: 0)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: ".") {
            if dots.count == 0 { dots.first = index } else if dots.count == 1 { dots.second = index }
            dots.count += 1
        }
        parts = dots.count + 1
        guard dots.count == 2 else { return nil }
        self.bytes = bytes
        (firstDot, secondDot) = (dots.first, dots.second)
    }

    /// nil unless the text is a compact JWS (see `init(_:parts:)`).
    public init?(_ text: String) {
        var parts = 0
        self.init(text, parts: &parts)
    }

    /// The payload's bytes (JSON for Apple's signed data), base64url-decoded; nil when it is not base64url.
    /// Nothing is verified: use this for a JWS verified before, such as one stored after verification.
    public var decodedPayload: Data? { Base64URL.decode(bytes: payload) }

    var header: ArraySlice<UInt8> { bytes[..<firstDot] }
    var payload: ArraySlice<UInt8> { bytes[(firstDot + 1)..<secondDot] }
    var signature: ArraySlice<UInt8> { bytes[(secondDot + 1)...] }
    /// What the signature covers: `header.payload`, as sent.
    var signingInput: ArraySlice<UInt8> { bytes[..<secondDot] }
}

extension UInt8 {
    /// Space, tab, line feed, vertical tab, form feed or carriage return.
    var isASCIIWhitespace: Bool { self == 0x20 || (0x09...0x0D).contains(self) }
}
