import Foundation

/// `TransactionHistoryRequest`, as Apple defines it.
public struct TransactionHistoryRequest: Codable, Hashable, Sendable {
    /// An optional start date of the timespan for the transaction history records you’re requesting. The startDate must precede the endDate if you specify both dates. To be included in results, the transaction’s purchaseDate must be equal to or greater than the startDate.
    public var startDate: Timestamp?
    /// An optional end date of the timespan for the transaction history records you’re requesting. Choose an endDate that’s later than the startDate if you specify both dates. Using an endDate in the future is valid. To be included in results, the transaction’s purchaseDate must be less than the endDate.
    public var endDate: Timestamp?
    /// An optional filter that indicates the product identifier to include in the transaction history. Your query may specify more than one productID.
    public var productIds: [String]?
    /// An optional filter that indicates the product type to include in the transaction history. Your query may specify more than one productType.
    public var productTypes: [ProductType]?
    /// An optional sort order for the transaction history records. The response sorts the transaction records by their recently modified date. The default value is ASCENDING, so you receive the oldest records first.
    public var sort: Order?
    /// An optional filter that indicates the subscription group identifier to include in the transaction history. Your query may specify more than one subscriptionGroupIdentifier.
    public var subscriptionGroupIdentifiers: [String]?
    /// An optional filter that limits the transaction history by the in-app ownership type.
    public var inAppOwnershipType: InAppOwnershipType?
    /// An optional Boolean value that indicates whether the response includes only revoked transactions when the value is true, or contains only nonrevoked transactions when the value is false. By default, the request doesn't include this parameter.
    public var revoked: Bool?

    public init(
        startDate: Timestamp? = nil, endDate: Timestamp? = nil, productIds: [String]? = nil, productTypes: [ProductType]? = nil, sort: Order? = nil,
        subscriptionGroupIdentifiers: [String]? = nil, inAppOwnershipType: InAppOwnershipType? = nil, revoked: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIds = productIds
        self.productTypes = productTypes
        self.sort = sort
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }
}
