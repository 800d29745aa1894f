import Foundation

/// `MassExtendRenewalDateRequest`, as Apple defines it.
public struct MassExtendRenewalDateRequest: Codable, Hashable, Sendable {
    /// The number of days to extend the subscription renewal date. maximum: 90
    public var extendByDays: Int32?
    /// The reason code for the subscription-renewal-date extension.
    public var extendReasonCode: ExtendReasonCode?
    /// A string that contains a unique identifier you provide to track each subscription-renewal-date extension request.
    public var requestIdentifier: String?
    /// A list of storefront country codes you provide to limit the storefronts for a subscription-renewal-date extension.
    public var storefrontCountryCodes: [String]?
    /// The unique identifier for the product, that you create in App Store Connect.
    public var productId: String?

    public init(
        extendByDays: Int32? = nil, extendReasonCode: ExtendReasonCode? = nil, requestIdentifier: String? = nil, storefrontCountryCodes: [String]? = nil,
        productId: String? = nil
    ) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.productId = productId
    }
}
