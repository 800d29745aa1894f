import Foundation
import Storegate

/// The lifecycle events' sentences: what happened in the tenant's words, with the money Apple reported.
extension TimelineSentences {
    static func lifecycle(_ type: Event.Kind, _ d: Fields) -> String {
        let product = d["productId"] ?? "a product"
        let money = d.object("money")
        let paid = money.flatMap { m in m.int("price").flatMap { price in m["currency"].map { ", " + Self.money(price, $0) } } } ?? ""
        let until = d.date("expiresDate").map { ", until \($0)" } ?? ""
        let offer = d.object("offer").flatMap { $0["identifier"] ?? $0["name"] }.map { " (offer \($0))" } ?? ""
        let why: String = d["reason"].map { " (\(reasons[$0] ?? $0))" } ?? ""
        let change = d.object("productChange").map { c in "\(c["from"] ?? "?") to \(c["to"] ?? "?")" + (c["direction"].map { " (\($0))" } ?? "") } ?? product
        switch type {
        case .subscriptionStarted: return "Subscribed to \(product)\(paid)\(until)"
        case .subscriptionTrialStarted: return "Started a free trial of \(product)\(until)"
        case .subscriptionOfferStarted: return "\(product) with an offer\(offer)\(paid)\(until)"
        case .subscriptionResubscribed: return "Subscribed to \(product) again\(paid)\(until)"
        case .subscriptionRenewed: return "Renewed \(product)\(paid)\(until)"
        case .subscriptionTrialConverted: return "Free trial of \(product) converted to paid\(paid)\(until)"
        case .subscriptionRenewalCancelled: return "Turned off auto-renew of \(product)\(why)"
        case .subscriptionRenewalEnabled: return "Turned auto-renew of \(product) back on"
        case .subscriptionBillingIssue: return "Renewal payment for \(product) failed; Apple is retrying"
        case .subscriptionGracePeriodEntered: return "Access to \(product) kept during the billing grace period"
        case .subscriptionGracePeriodEnded: return "Billing grace period of \(product) ended unpaid"
        case .subscriptionBillingRecovered: return "Payment for \(product) recovered\(paid)\(until)"
        case .subscriptionExpired: return "\(product) expired\(why)"
        case .subscriptionProductChangeScheduled: return "At the next renewal, changes from \(change)"
        case .subscriptionProductChangeCancelled: return "Scheduled change of product taken back: \(change)"
        case .subscriptionProductChanged: return "Changed from \(change)\(paid)"
        case .subscriptionPriceIncreasePending: return "Apple asked for consent to a price increase of \(product)"
        case .subscriptionPriceIncreaseConsented: return "Accepted the price increase of \(product)"
        case .subscriptionPriceIncreaseRefused: return "Did not accept the price increase of \(product)"
        case .subscriptionExtended: return "Renewal date of \(product) extended" + (d.int("extendedByDays").map { " by \(days($0))" } ?? "")
        case .purchaseOneTime: return "Bought \(product)\(paid)"
        case .purchaseConsumable: return "Bought \(product) (consumable)\(paid)"
        case .purchaseRefunded: return "Refunded \(product)\(paid)"
        case .purchaseRefundReversed: return "Refund of \(product) reversed\(paid)"
        case .purchaseFamilyRevoked: return "Family Sharing access to \(product) ended"
        case .purchaseTransferred: return "\(product) moved to this customer from \(d["previousCustomerId"] ?? "another customer")"
        default: return type.rawValue
        }
    }

    /// Apple's reasons (`expirationIntent`) as a support person reads them.
    static let reasons = [
        "voluntary": "the customer's choice", "billingError": "billing error", "priceIncrease": "price increase not accepted",
        "productUnavailable": "product no longer available", "other": "other reason",
    ]
}
