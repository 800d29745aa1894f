import Foundation

/// Random secrets (base32 for API keys; base64url for webhook tokens, console sessions, sign-in links and
/// CSRF tokens), and their comparison.
public enum Secret {
    static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// 32 random bytes, base64url without padding: 43 characters.
    public static func token() -> String {
        Data(bytes(32)).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base32(_ count: Int) -> String {
        let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
        return String(bytes(count).map { alphabet[Int($0 & 31)] })
    }

    /// Whether a presented secret is the expected one, in time that does not depend on where they differ.
    public static func same(_ given: String?, _ expected: String) -> Bool {
        guard let given, given.utf8.count == expected.utf8.count else { return false }
        return zip(given.utf8, expected.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
