import AppStoreServer
import Foundation

/// Apple's summary of a finished mass renewal-date extension (`RENEWAL_EXTENSION` / `SUMMARY`).
public struct MassExtensionSummary: Sendable, Equatable {
    public let requestIdentifier: String
    public let appId: UUID
    public let environment: AppStoreEnvironment
    public let productId: String?
    public let storefrontCountryCodes: [String]?
    public let succeededCount: Int64
    public let failedCount: Int64
    /// The notification's `signedDate`.
    public let completedAt: Date

    public init(
        requestIdentifier: String, appId: UUID, environment: AppStoreEnvironment, productId: String?, storefrontCountryCodes: [String]?, succeededCount: Int64,
        failedCount: Int64, completedAt: Date
    ) {
        self.requestIdentifier = requestIdentifier
        self.appId = appId
        self.environment = environment
        self.productId = productId
        self.storefrontCountryCodes = storefrontCountryCodes
        self.succeededCount = succeededCount
        self.failedCount = failedCount
        self.completedAt = completedAt
    }
}

/// A renewal-date extension asked of Apple, one subscription's or a product's (mass).
public struct RenewalExtension: Sendable, Equatable {
    public let requestIdentifier: String
    public let appId: UUID
    public let environment: AppStoreEnvironment?
    public let originalTransactionId: String?
    public let productId: String?
    public let days: Int
    public let reasonCode: Int
    public let mass: Bool
    public let effectiveDate: Date?
    /// nil while Apple has not answered.
    public let succeeded: Bool?

    public init(
        requestIdentifier: String, appId: UUID, environment: AppStoreEnvironment?, originalTransactionId: String?, productId: String?, days: Int,
        reasonCode: Int,
        mass: Bool, effectiveDate: Date? = nil, succeeded: Bool? = nil
    ) {
        self.requestIdentifier = requestIdentifier
        self.appId = appId
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.days = days
        self.reasonCode = reasonCode
        self.mass = mass
        self.effectiveDate = effectiveDate
        self.succeeded = succeeded
    }

    func with(environment: AppStoreEnvironment?, effectiveDate: Date?, succeeded: Bool?) -> RenewalExtension {
        RenewalExtension(
            requestIdentifier: requestIdentifier, appId: appId, environment: environment, originalTransactionId: originalTransactionId, productId: productId,
            days: days, reasonCode: reasonCode, mass: mass, effectiveDate: effectiveDate, succeeded: succeeded)
    }
}
