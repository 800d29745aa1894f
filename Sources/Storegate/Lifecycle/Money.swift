import AppStoreServer
import Foundation

/// The money of a charge or a refund: Apple's price and currency, and an estimate of what the developer
/// keeps. Apple's `price` is what the customer paid, tax included where the storefront's prices include it,
/// the offer's discount and the quantity taken into account. The estimate deducts tax only when the
/// tenant's catalog lists the storefront's rate, then the App Store's commission (`CommissionRule`). Apple's
/// own figures are in App Store Connect's reports; these are an estimate, never an invoice.
struct Money: Encodable, Equatable {
    /// In milliunits of `currency` (4990 is 4.99); negative for a refund.
    var price: Int64
    var currency: String
    /// The commission rate the estimate used, in percent.
    var commissionPercent: Int
    var commissionRule: CommissionRule
    /// The storefront's tax the estimate deducted, in basis points; absent when none was.
    var taxBasisPoints: Int?
    /// The price less tax (when known) and commission, in milliunits of `currency`: an estimate.
    var estimatedProceeds: Int64

    init(price: Int64, currency: String, rule: CommissionRule, taxBasisPoints: Int?) {
        self.price = price
        self.currency = currency
        commissionRule = rule
        commissionPercent = rule.percent
        self.taxBasisPoints = taxBasisPoints
        let net = Double(price) / (1 + Double(taxBasisPoints ?? 0) / 10_000)
        estimatedProceeds = Int64((net * Double(100 - rule.percent) / 100).rounded())
    }
}

/// Which of the App Store's commission rates applies to a charge.
enum CommissionRule: String, Encodable, Equatable {
    /// 30 %: a purchase, or a subscription's first year of paid service.
    case standard
    /// 15 %: a subscription after a year of paid service.
    case reducedAfterFirstYear
    /// 15 %: every charge of a member of the Small Business Program.
    case smallBusiness

    var percent: Int { self == .standard ? 30 : 15 }

    /// The rule for a charge of `productType` after `paidDays` of the subscription's paid service.
    init(program: CommissionProgram, productType: ProductType, paidDays: Double) {
        if program == .smallBusiness {
            self = .smallBusiness
        } else if productType == .autoRenewableSubscription, paidDays >= 365 {
            self = .reducedAfterFirstYear
        } else {
            self = .standard
        }
    }
}

extension SeriesTransaction {
    /// Apple's rule for the reduced rate: paid days count (free trials do not, nor refunded periods), a gap
    /// of more than 60 days starts the count again.
    static let gapThatResets: TimeInterval = 60 * 86_400

    /// Whether the customer paid for this period.
    var isPaid: Bool { (price ?? 0) > 0 && offerDiscountType != .freeTrial && revocationDate == nil }

    /// Days of paid service the subscription had before `transaction` started, from its stored history.
    /// A renewal charged before its period begins starts at the previous period's end. Extension days are in
    /// the periods' expiry dates as Apple re-signs them, so they count here where Apple counts none.
    static func paidDays(before transaction: SeriesTransaction, in series: [SeriesTransaction]) -> Double {
        guard let start = transaction.purchaseDate else { return 0 }
        var days = 0.0
        var lastEnd: Date?
        for earlier in series.sorted(by: SeriesTransaction.purchaseOrder)
        where earlier.transactionId != transaction.transactionId && (earlier.purchaseDate ?? .distantFuture) < start && earlier.isPaid {
            guard let bought = earlier.purchaseDate, let end = earlier.expiresDate else { continue }
            let begins = max(bought, lastEnd ?? bought)
            if let lastEnd, begins.timeIntervalSince(lastEnd) > gapThatResets { days = 0 }
            days += max(0, end.timeIntervalSince(begins)) / 86_400
            lastEnd = max(lastEnd ?? end, end)
        }
        if let lastEnd, start.timeIntervalSince(lastEnd) > gapThatResets { return 0 }
        return days
    }
}
