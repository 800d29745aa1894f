import Foundation

/// `HistoryResponse`, as Apple defines it.
public struct HistoryResponse: Codable, Hashable, Sendable {
    /// A token you use in a query to request the next set of transactions for the customer.
    public var revision: String?
    /// A Boolean value indicating whether the App Store has more transaction data.
    public var hasMore: Bool?
    /// The bundle identifier of an app.
    public var bundleId: String?
    /// The unique identifier of an app in the App Store.
    public var appAppleId: Int64?
    /// The server environment in which you’re making the request, whether sandbox or production.
    public var environment: AppStoreEnvironment?
    /// An array of in-app purchase transactions for the customer, signed by Apple, in JSON Web Signature format.
    public var signedTransactions: [String]?

    public init(
        revision: String? = nil, hasMore: Bool? = nil, bundleId: String? = nil, appAppleId: Int64? = nil, environment: AppStoreEnvironment? = nil,
        signedTransactions: [String]? = nil
    ) {
        self.revision = revision
        self.hasMore = hasMore
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.signedTransactions = signedTransactions
    }
}
