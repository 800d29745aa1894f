import Foundation

/// `RefundHistoryResponse`, as Apple defines it.
public struct RefundHistoryResponse: Codable, Hashable, Sendable {
    /// A list of up to 20 JWS transactions, or an empty array if the customer hasn&#39;t received any refunds in your app. The transactions are sorted in ascending order by revocationDate.
    public var signedTransactions: [String]?
    /// A token you use in a query to request the next set of transactions for the customer.
    public var revision: String?
    /// A Boolean value indicating whether the App Store has more transaction data.
    public var hasMore: Bool?

    public init(signedTransactions: [String]? = nil, revision: String? = nil, hasMore: Bool? = nil) {
        self.signedTransactions = signedTransactions
        self.revision = revision
        self.hasMore = hasMore
    }
}
