import Crypto
import Foundation

/// Signing per the Standard Webhooks specification (standardwebhooks.com): the signed content is
/// `webhook-id.webhook-timestamp.body`, signed with HMAC-SHA256 under the secret's bytes (the base64
/// after `whsec_`); `webhook-signature` holds `v1,<base64>` for each secret in use, space-separated.
public enum StandardWebhooks {
    /// A new secret: `whsec_` and 32 random bytes in base64.
    public static func newSecret() -> String {
        "whsec_" + Data(Secret.bytes(32)).base64EncodedString()
    }

    /// The key bytes of a `whsec_` secret; nil when it is not one.
    public static func key(_ secret: String) -> SymmetricKey? {
        guard secret.hasPrefix("whsec_"), let bytes = Data(base64Encoded: String(secret.dropFirst(6))), (24...64).contains(bytes.count) else {
            return nil
        }
        return SymmetricKey(data: bytes)
    }

    /// `v1,<base64 HMAC-SHA256>` of one message under one key.
    public static func signature(id: String, timestamp: Int, body: some DataProtocol, key: SymmetricKey) -> String {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: Data("\(id).\(timestamp).".utf8))
        hmac.update(data: body)
        return "v1," + Data(hmac.finalize()).base64EncodedString()
    }

    /// The three headers of one message, signed under every key given (newest first).
    public static func headers(id: String, timestamp: Int, body: some DataProtocol, keys: [SymmetricKey]) -> [(name: String, value: String)] {
        [
            ("webhook-id", id), ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", keys.map { signature(id: id, timestamp: timestamp, body: body, key: $0) }.joined(separator: " ")),
        ]
    }
}
