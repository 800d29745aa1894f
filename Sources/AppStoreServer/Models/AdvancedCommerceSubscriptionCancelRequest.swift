import Foundation

/// `AdvancedCommerceSubscriptionCancelRequest`, as Apple defines it.
public struct AdvancedCommerceSubscriptionCancelRequest: Codable, Hashable, Sendable {
    public var requestInfo: AdvancedCommerceRequestInfo
    public var storefront: String?

    public init(requestInfo: AdvancedCommerceRequestInfo, storefront: String? = nil) {
        self.requestInfo = requestInfo
        self.storefront = storefront
    }
}
