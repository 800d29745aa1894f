import Foundation

/// `PromotionalOfferSignatureV1`, as Apple defines it.
public struct PromotionalOfferSignatureV1: Codable, Hashable, Sendable {
    /// The Base64-encoded cryptographic signature you generate using the offer parameters.
    public var encodedSignature: String
    /// The subscription's product identifier.
    public var productId: String
    /// A one-time-use UUID antireplay value you generate.
    public var nonce: LowercaseUUID
    /// The UNIX time, in milliseconds, when you generate the signature.
    public var timestamp: Int64
    /// A string that identifies the private key you use to generate the signature.
    public var keyId: String
    /// The subscription offer identifier that you set up in App Store Connect.
    public var offerIdentifier: String
    /// A UUID that you provide to associate with the transaction if the customer accepts the promotional offer.
    public var appAccountToken: LowercaseUUID?

    public init(
        encodedSignature: String, productId: String, nonce: LowercaseUUID, timestamp: Int64, keyId: String, offerIdentifier: String,
        appAccountToken: LowercaseUUID? = nil
    ) {
        self.encodedSignature = encodedSignature
        self.productId = productId
        self.nonce = nonce
        self.timestamp = timestamp
        self.keyId = keyId
        self.offerIdentifier = offerIdentifier
        self.appAccountToken = appAccountToken
    }
}
