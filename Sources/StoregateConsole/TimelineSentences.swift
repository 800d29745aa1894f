import Foundation
import Storegate

/// What each event says on a customer's timeline: a sentence for a support person, made from the event's
/// type and its data (`Events.swift` says what each type carries). Products are named by their product ID,
/// since Storegate keeps no display names. The identifiers in the data are listed apart, to be folded away.
enum TimelineSentences {
    /// The sentence for an event of `type` whose data is `json`.
    static func sentence(_ type: Event.Kind, json: String) -> String {
        sentence(type, Fields(json: json))
    }

    static func sentence(_ type: Event.Kind, _ d: Fields) -> String {
        let product = d["productId"] ?? "a product"
        switch type {
        case .purchaseCreated:
            let subscription = d["productType"] == "Auto-Renewable Subscription"
            let paid = d.int("price").flatMap { price in d["currency"].map { ", " + money(price, $0) } } ?? ""
            let until = d.date("expiresDate").map { ", until \($0)" } ?? ""
            if subscription && d["transactionId"] != d["originalTransactionId"] { return "Renewed \(product)\(paid)\(until)" }
            return (subscription ? "Subscribed to \(product)" : "Bought \(product)") + paid + until
        case .subscriptionUpdated:
            return subscriptionUpdated(previous: d.object("previous"), current: d.object("current") ?? Fields())
        case .subscriptionRenewalExtended:
            let reason = ["undeclared", "customer satisfaction", "other", "service issue or outage"]
            let code = d.int("extendReasonCode").flatMap { reason.indices.contains($0) ? reason[$0] : nil }
            return "Renewal date extended by \(d.int("extendByDays").map(days) ?? "some days")" + (code.map { " (\($0))" } ?? "")
                + (d["requestedBy"].map { ", asked by \($0)" } ?? "")
        case .refundGranted:
            if d["revocationType"] == "FAMILY_REVOKE" { return "Family Sharing access to \(product) revoked" }
            // Apple's revocationPercentage is in milliunits: 75000 is 75%.
            let part = d.int("refundPercentage").flatMap { $0 < 100_000 ? " (\($0 / 1000)%)" : nil } ?? ""
            let quantity = d.int("quantity").flatMap { $0 > 1 ? " ×\($0)" : nil } ?? ""
            let why = d.int("revocationReason") == 1 ? " for an issue in the app" : ""
            return "Refunded \(product)\(quantity)\(part)\(why); access revoked"
        case .refundDeclined: return "Apple declined a refund of \(product)"
        case .refundReversed: return "Apple reversed the refund of \(product); access restored"
        case .consumptionRequested:
            return "Apple asked for consumption information about a refund request"
                + (d["reason"].map { " (\($0.lowercased().replacingOccurrences(of: "_", with: " ")))" } ?? "")
                + (d.date("deadline").map { "; answer by \($0)" } ?? "")
        case .consumptionSent: return "Consumption information sent to Apple"
        case .consumptionNotSent: return "Consumption information not sent" + (d["reason"].map { ": \($0)" } ?? "")
        case .accountLinked:
            switch d["kind"] {
            case "originalTransactionId": return "A purchase was linked to this customer"
            case "appTransactionId": return "An app download was linked to this customer"
            default: return "Linked to this customer"
            }
        case .accountTransferred: return "Moved to this customer from \(d["previousCustomerId"] ?? "another customer")"
        case .customerDeleted: return "A customer was erased" + (d["erasureId"].map { " (\($0))" } ?? "")
        case .notificationReceived:
            return "Apple sent a " + (d["notificationType"].map { "\($0) " } ?? "") + "notification" + (d["subtype"].map { " (\($0))" } ?? "")
        case .entitlementGranted:
            return "Granted \(d["entitlement"] ?? product)" + (d.date("expiresDate").map { " until \($0)" } ?? "")
                + (d["reason"].map { " (\u{201C}\($0)\u{201D})" } ?? "") + (d["grantedBy"].map { ", by \($0)" } ?? "")
        case .entitlementRevoked:
            return "Grant of \(d["entitlement"] ?? product) revoked" + (d["revokedBy"].map { " by \($0)" } ?? "")
                + (d["revokeReason"].map { " (\u{201C}\($0)\u{201D})" } ?? "")
        case .retentionAnswered:
            let unanswered = [
                "noRules": "no rules set", "noRuleHeld": "no rule applied", "unknownSubscription": "subscription unknown", "tenantSuspended": "suspended",
            ]
            if let why = d["unanswered"] { return "Did not answer Apple's retention message request for \(product) (\(unanswered[why] ?? why))" }
            return "Answered Apple's retention message request for \(product)" + (d["rule"].map { " (rule \u{201C}\($0)\u{201D})" } ?? "")
        case .catalogChanged:
            return "The catalog of products and entitlements was replaced" + (d["updatedBy"].map { ", by \($0)" } ?? "")
        case .entitlementsChanged:
            let (added, removed) = (d.names("added"), d.names("removed"))
            let parts =
                (added.isEmpty ? [] : ["gained " + added.joined(separator: ", ")]) + (removed.isEmpty ? [] : ["lost " + removed.joined(separator: ", ")])
            return "Access " + (parts.isEmpty ? "unchanged" : parts.joined(separator: "; "))
        default:
            return lifecycle(type, d)
        }
    }

    /// Apple's milliunits as money: 4990 USD is "4.99 USD".
    static func money(_ milliunits: Int, _ currency: String) -> String {
        String(format: "%.2f %@", Double(milliunits) / 1000, currency)
    }

    /// A subscription's change, from its state before (none when first seen) to now.
    static func subscriptionUpdated(previous: Fields?, current: Fields) -> String {
        let product = current["productId"] ?? "the subscription"
        let until = current.date("expiresDate")
        guard let previous else {
            return "Storegate started following \(product): " + status(current["status"], product: product, until: until, first: true)
        }
        var parts: [String] = []
        if let before = previous["productId"], before != product { parts.append("Changed from \(before) to \(product)") }
        if previous["status"] != current["status"] {
            parts.append(status(current["status"], product: product, until: until, first: false, from: previous["status"]))
        } else if previous["expiresDate"] != current["expiresDate"], let until {
            parts.append("\(product) now runs until \(until)")
        }
        switch (previous.bool("autoRenewStatus"), current.bool("autoRenewStatus")) {
        case (true, false): parts.append("Auto-renew turned off")
        case (false, true): parts.append("Auto-renew turned on")
        default: break
        }
        return parts.isEmpty ? "\(product) updated" : parts.joined(separator: "; ")
    }

    static func status(_ status: String?, product: String, until: String?, first: Bool, from previous: String? = nil) -> String {
        let untilText = until.map { " until \($0)" } ?? ""
        switch status {
        case "active":
            if previous == "billingRetry" || previous == "gracePeriod" { return "Payment recovered: \(product) active\(untilText)" }
            return first ? "active\(untilText)" : "\(product) active again\(untilText)"
        case "expired": return (first ? "expired" : "\(product) expired") + (until.map { " on \($0)" } ?? "")
        case "billingRetry": return (first ? "" : "\(product): ") + "renewal payment failed, Apple is retrying (no access meanwhile)"
        case "gracePeriod": return (first ? "" : "\(product): ") + "renewal payment failed, access kept during the grace period"
        case "revoked": return (first ? "" : "\(product): ") + "access revoked"
        default: return (first ? "" : "\(product): ") + "status \(status ?? "unknown")"
        }
    }

    static func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }

    /// The identifiers in an event's data, by the names Apple and Storegate give them, in this order.
    static func identifiers(json: String) -> [(name: String, value: String)] {
        let d = Fields(json: json)
        let names = [
            "transactionId", "originalTransactionId", "latestTransactionId", "requestId", "requestIdentifier", "grantId", "notificationUUID",
            "appAccountToken", "previousCustomerId",
        ]
        var found = names.compactMap { name in d[name].map { (name: name, value: $0) } }
        if let kind = d["kind"], let value = d["value"] { found.append((name: kind, value: value)) }
        return found
    }

    /// An event's data, read leniently: a field of the wrong kind reads as absent.
    struct Fields {
        let values: [String: Any]

        init(_ values: [String: Any] = [:]) { self.values = values }

        init(json: String) {
            self.init((try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:])
        }

        /// A text field; nil when absent, empty or not text.
        subscript(_ name: String) -> String? {
            guard let text = values[name] as? String, !text.isEmpty else { return nil }
            return text
        }

        func int(_ name: String) -> Int? {
            if let value = values[name] as? Int { return value }
            return (values[name] as? NSNumber)?.intValue
        }

        func bool(_ name: String) -> Bool? { values[name] as? Bool }
        func object(_ name: String) -> Fields? { (values[name] as? [String: Any]).map(Fields.init) }
        /// A list of names (`entitlements.changed`'s `added`); empty when absent.
        func names(_ name: String) -> [String] { values[name] as? [String] ?? [] }

        /// An ISO 8601 date in the data, as the console shows dates.
        func date(_ name: String) -> String? {
            guard let text = self[name], let date = try? Date(text, strategy: .iso8601) else { return nil }
            return shown(date)
        }
    }
}
