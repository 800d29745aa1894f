import Foundation

/// `RealtimeRequestBody`, as Apple defines it.
public struct RealtimeRequestBody: Codable, Hashable, Sendable {
    /// The payload in JSON Web Signature (JWS) format, signed by the App Store.
    public var signedPayload: String?

    public init(signedPayload: String? = nil) {
        self.signedPayload = signedPayload
    }
}
