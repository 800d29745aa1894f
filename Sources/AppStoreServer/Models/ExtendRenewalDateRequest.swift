import Foundation

/// `ExtendRenewalDateRequest`, as Apple defines it.
public struct ExtendRenewalDateRequest: Codable, Hashable, Sendable {
    /// The number of days to extend the subscription renewal date. maximum: 90
    public var extendByDays: Int32?
    /// The reason code for the subscription date extension
    public var extendReasonCode: ExtendReasonCode?
    /// A string that contains a unique identifier you provide to track each subscription-renewal-date extension request.
    public var requestIdentifier: String?

    public init(extendByDays: Int32? = nil, extendReasonCode: ExtendReasonCode? = nil, requestIdentifier: String? = nil) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }
}
