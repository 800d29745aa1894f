import Foundation

/// The fields of a signed payload that verification checks, read from any of the four kinds.
struct PayloadFacts: Decodable {
    struct AppFacts: Decodable {
        let bundleId: String?
        let appAppleId: Int64?
        let environment: String?
    }

    struct ExternalPurchaseToken: Decodable {
        let bundleId: String?
        let appAppleId: Int64?
        let externalPurchaseId: String?
    }

    let notificationType: String?
    let data: AppFacts?
    let summary: AppFacts?
    let appData: AppFacts?
    let externalPurchaseToken: ExternalPurchaseToken?
    let receiptType: String?
    let receiptCreationDate: Double?
    let transactionId: String?
    let bundleId: String?
    let appAppleId: Int64?
    let environment: String?
    let signedDate: Double?
    let requestIdentifier: String?

    /// Notification, realtime request, app transaction, transaction (has a bundle ID), else renewal info.
    var kind: SignedPayloadKind {
        if notificationType != nil { return .notification }
        if requestIdentifier != nil { return .realtimeRequest }
        if receiptType != nil { return .appTransaction }
        if bundleId != nil || transactionId != nil { return .transaction }
        return .renewalInfo
    }

    /// The app the payload belongs to, per kind, as Apple's libraries read it.
    func identity(as kind: SignedPayloadKind) -> (bundleId: String?, appAppleId: Int64?, environment: String?) {
        switch kind {
        case .notification:
            if let data { return (data.bundleId, data.appAppleId, data.environment) }
            if let summary { return (summary.bundleId, summary.appAppleId, summary.environment) }
            if let token = externalPurchaseToken {
                return (token.bundleId, token.appAppleId, token.externalPurchaseId?.hasPrefix("SANDBOX") == true ? "Sandbox" : "Production")
            }
            if let appData { return (appData.bundleId, appData.appAppleId, appData.environment) }
            return (nil, nil, nil)
        case .transaction: return (bundleId, nil, environment)
        case .renewalInfo: return (nil, nil, environment)
        case .appTransaction: return (bundleId, appAppleId, receiptType)
        case .realtimeRequest: return (nil, appAppleId, environment)
        }
    }

    /// The time the chain is validated at when offline: `signedDate`, or `receiptCreationDate`.
    var signingTime: Date? {
        (signedDate ?? receiptCreationDate).map { Date(timeIntervalSince1970: $0 / 1000) }
    }
}
