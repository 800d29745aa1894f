import AppStoreServer
import Foundation
import Testing

@Suite struct Base64URLTests {
    /// Every length and byte value round-trips, and the text is Foundation's base64 in the url alphabet, unpadded.
    @Test func matchesFoundationAndRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let text = Base64URL.encode(bytes)
            let expected = bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(text == expected)
            #expect(Base64URL.decode(text) == bytes)
            let padded = text + String(repeating: "=", count: (4 - text.count % 4) % 4)
            #expect(Base64URL.decode(padded) == bytes)
        }
        #expect(Base64URL.encode(Data([0xFB, 0xFF])) == "-_8")
    }

    @Test func refusesWhatIsNotBase64URL() {
        for text in ["a+bc", "ab/c", "ab=c", "abcde", "ab c", "abc==", "a===", "é"] {
            #expect(Base64URL.decode(text) == nil, "\(text)")
        }
    }
}
