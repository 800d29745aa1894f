import Foundation

/// `ResponseBodyV2`, as Apple defines it.
public struct ResponseBodyV2: Codable, Hashable, Sendable {
    /// A cryptographically signed payload, in JSON Web Signature (JWS) format, containing the response body for a version 2 notification.
    public var signedPayload: String?

    public init(signedPayload: String? = nil) {
        self.signedPayload = signedPayload
    }
}
