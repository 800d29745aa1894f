import Foundation

/// `LastTransactionsItem`, as Apple defines it.
public struct LastTransactionsItem: Codable, Hashable, Sendable {
    /// The status of the auto-renewable subscription.
    public var status: Status?
    /// The original transaction identifier of a purchase.
    public var originalTransactionId: String?
    /// Transaction information signed by the App Store, in JSON Web Signature (JWS) format.
    public var signedTransactionInfo: String?
    /// Subscription renewal information, signed by the App Store, in JSON Web Signature (JWS) format.
    public var signedRenewalInfo: String?

    public init(status: Status? = nil, originalTransactionId: String? = nil, signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil) {
        self.status = status
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}
