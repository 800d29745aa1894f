import Foundation

/// `TransactionInfoResponse`, as Apple defines it.
public struct TransactionInfoResponse: Codable, Hashable, Sendable {
    /// A customer’s in-app purchase transaction, signed by Apple, in JSON Web Signature (JWS) format.
    public var signedTransactionInfo: String?

    public init(signedTransactionInfo: String? = nil) {
        self.signedTransactionInfo = signedTransactionInfo
    }
}
