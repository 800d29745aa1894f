import AppStoreServer
import Foundation

/// One transaction of a purchase's series (its `originalTransactionId`: a subscription's periods, or a
/// one-time purchase alone), as lifecycle rules read it from the stored history.
public struct SeriesTransaction: Sendable, Equatable {
    public var transactionId: String
    public var productId: String
    public var productType: ProductType
    public var purchaseDate: Date?
    public var expiresDate: Date?
    /// Apple's price in milliunits of `currency`.
    public var price: Int64?
    public var currency: String?
    public var offerType: OfferType?
    public var offerDiscountType: OfferDiscountType?
    public var offerIdentifier: String?
    public var transactionReason: TransactionReason?
    public var revocationDate: Date?

    public init(
        transactionId: String, productId: String, productType: ProductType, purchaseDate: Date?, expiresDate: Date?, price: Int64?, currency: String?,
        offerType: OfferType?, offerDiscountType: OfferDiscountType?, offerIdentifier: String?, transactionReason: TransactionReason?, revocationDate: Date?
    ) {
        self.transactionId = transactionId
        self.productId = productId
        self.productType = productType
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.price = price
        self.currency = currency
        self.offerType = offerType
        self.offerDiscountType = offerDiscountType
        self.offerIdentifier = offerIdentifier
        self.transactionReason = transactionReason
        self.revocationDate = revocationDate
    }

    init(_ t: JWSTransactionDecodedPayload, transactionId: String) {
        self.init(
            transactionId: transactionId, productId: t.productId ?? "", productType: t.type ?? ProductType(rawValue: ""), purchaseDate: t.purchaseDate?.date,
            expiresDate: t.expiresDate?.date, price: t.price, currency: t.currency, offerType: t.offerType, offerDiscountType: t.offerDiscountType,
            offerIdentifier: t.offerIdentifier, transactionReason: t.transactionReason, revocationDate: t.revocationDate?.date)
    }

    /// Oldest purchase first; a transaction without a date last.
    static func purchaseOrder(_ a: SeriesTransaction, _ b: SeriesTransaction) -> Bool {
        (a.purchaseDate ?? .distantFuture, a.transactionId) < (b.purchaseDate ?? .distantFuture, b.transactionId)
    }

    /// The transaction of the series bought last before `t`.
    static func previous(of t: SeriesTransaction, in series: [SeriesTransaction]) -> SeriesTransaction? {
        series.filter { $0.transactionId != t.transactionId && purchaseOrder($0, t) }.max(by: purchaseOrder)
    }

    /// What the period is, by its offer.
    var periodType: LifecyclePeriodType { LifecyclePeriodType(offerType: offerType, discount: offerDiscountType) }
}
