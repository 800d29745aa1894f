import Foundation

/// `AdvancedCommerceRequestInfo`, as Apple defines it.
public struct AdvancedCommerceRequestInfo: Codable, Hashable, Sendable {
    /// A UUID that represents an app account token, to associate with the transaction in the request.
    public var appAccountToken: LowercaseUUID?
    /// The value of the advancedCommerceConsistencyToken that you receive in the JWSRenewalInfo renewal information for a subscription. Don't generate this value.
    public var consistencyToken: String?
    /// A UUID that you provide to uniquely identify each request. If the request times out, you can use the same requestReferenceId value to retry the request. Otherwise, provide a unique value.
    public var requestReferenceId: LowercaseUUID

    public init(appAccountToken: LowercaseUUID? = nil, consistencyToken: String? = nil, requestReferenceId: LowercaseUUID) {
        self.appAccountToken = appAccountToken
        self.consistencyToken = consistencyToken
        self.requestReferenceId = requestReferenceId
    }
}
