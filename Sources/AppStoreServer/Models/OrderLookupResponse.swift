import Foundation

/// `OrderLookupResponse`, as Apple defines it.
public struct OrderLookupResponse: Codable, Hashable, Sendable {
    /// The status that indicates whether the order ID is valid.
    public var status: OrderLookupStatus?
    /// An array of in-app purchase transactions that are part of order, signed by Apple, in JSON Web Signature format.
    public var signedTransactions: [String]?

    public init(status: OrderLookupStatus? = nil, signedTransactions: [String]? = nil) {
        self.status = status
        self.signedTransactions = signedTransactions
    }
}
