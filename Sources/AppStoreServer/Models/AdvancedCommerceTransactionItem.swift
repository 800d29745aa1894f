import Foundation

/// `AdvancedCommerceTransactionItem`, as Apple defines it.
public struct AdvancedCommerceTransactionItem: Codable, Hashable, Sendable {
    public var SKU: String?
    public var description: String?
    public var displayName: String?
    public var offer: AdvancedCommerceOffer?
    public var price: Int64?
    public var refunds: [AdvancedCommerceRefund]?
    public var revocationDate: Timestamp?

    public init(
        SKU: String? = nil, description: String? = nil, displayName: String? = nil, offer: AdvancedCommerceOffer? = nil, price: Int64? = nil,
        refunds: [AdvancedCommerceRefund]? = nil, revocationDate: Timestamp? = nil
    ) {
        self.SKU = SKU
        self.description = description
        self.displayName = displayName
        self.offer = offer
        self.price = price
        self.refunds = refunds
        self.revocationDate = revocationDate
    }
}
