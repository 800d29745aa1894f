import Foundation

/// `AdvancedCommerceSubscriptionMigrateResponse`, as Apple defines it.
public struct AdvancedCommerceSubscriptionMigrateResponse: Codable, Hashable, Sendable {
    /// Subscription renewal information signed by the App Store, in JSON Web Signature (JWS) format, for the migrated subscription.
    public var signedRenewalInfo: String
    /// Transaction information signed by the App Store, in JSON Web Signature (JWS) Compact Serialization format, for the migrated subscription.
    public var signedTransactionInfo: String

    public init(signedRenewalInfo: String, signedTransactionInfo: String) {
        self.signedRenewalInfo = signedRenewalInfo
        self.signedTransactionInfo = signedTransactionInfo
    }
}
