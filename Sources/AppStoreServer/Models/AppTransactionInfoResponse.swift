import Foundation

/// `AppTransactionInfoResponse`, as Apple defines it.
public struct AppTransactionInfoResponse: Codable, Hashable, Sendable {
    /// A customer’s app transaction information, signed by Apple, in JSON Web Signature (JWS) format.
    public var signedAppTransactionInfo: String?

    public init(signedAppTransactionInfo: String? = nil) {
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}
