import Foundation

/// `AdvancedCommerceRequestRefundResponse`, as Apple defines it.
public struct AdvancedCommerceRequestRefundResponse: Codable, Hashable, Sendable {
    /// Subscription renewal information signed by the App Store, in JSON Web Signature (JWS) format.
    public var signedRenewalInfo: String?
    /// Transaction information signed by the App Store, in JWS Compact Serialization format.
    public var signedTransactionInfo: String

    public init(signedRenewalInfo: String? = nil, signedTransactionInfo: String) {
        self.signedRenewalInfo = signedRenewalInfo
        self.signedTransactionInfo = signedTransactionInfo
    }
}
