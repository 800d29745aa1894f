import AppStoreServer
import Foundation
import StoregatePostgres

/// A transaction (and, for a subscription, its renewal info) verified from Apple's signed data.
struct SignedPurchase: Sendable {
    let transaction: JWSTransactionDecodedPayload
    let signedTransaction: String
    let transactionJSON: String
    let renewal: JWSRenewalInfoDecodedPayload?
    let environment: String

    /// Verifies `signedTransaction` (and `signedRenewalInfo`) as data of `app` in `environment`.
    static func verify(
        signedTransaction: String, signedRenewalInfo: String?, app: AppRecord, environment: String, chains: ChainVerifier, allowUnsignedEnvironments: Bool,
        field: String
    ) async throws -> SignedPurchase {
        let verifier = SignedDataVerifier(
            configuration: .init(bundleId: app.bundleId, appAppleId: app.appAppleId, environment: environment, allowUnsignedEnvironments: allowUnsignedEnvironments),
            chains: chains)
        let verified: VerifiedPayload
        switch await verifier.verify(signedTransaction, as: .transaction) {
        case .invalid(let failure): throw StoregateError.unverified(field: field, failure: failure)
        case .valid(let payload): verified = payload
        }
        var renewal: JWSRenewalInfoDecodedPayload?
        if let signedRenewalInfo {
            switch await verifier.verify(signedRenewalInfo, as: .renewalInfo) {
            case .invalid(let failure): throw StoregateError.unverified(field: "signedRenewalInfo", failure: failure)
            case .valid(let payload): renewal = try payload.decode(JWSRenewalInfoDecodedPayload.self)
            }
        }
        let transaction = try verified.decode(JWSTransactionDecodedPayload.self)
        guard transaction.transactionId != nil, transaction.originalTransactionId != nil else {
            throw StoregateError.invalid(field: field, reason: "has no transactionId or originalTransactionId")
        }
        return SignedPurchase(
            transaction: transaction, signedTransaction: signedTransaction, transactionJSON: String(decoding: verified.payload, as: UTF8.self), renewal: renewal,
            environment: verified.environment ?? environment)
    }

    var transactionId: String { transaction.transactionId ?? "" }
    var originalTransactionId: String { transaction.originalTransactionId ?? "" }
    var isSubscription: Bool { transaction.type == .autoRenewableSubscription }

    func transactionRow(appId: UUID, customer: UUID?) -> TransactionRow {
        TransactionRow(
            appId: appId, environment: environment, transactionId: transactionId, originalTransactionId: originalTransactionId,
            appTransactionId: transaction.appTransactionId, customer: customer, productId: transaction.productId ?? "", productType: transaction.type?.rawValue ?? "",
            purchaseDate: transaction.purchaseDate?.date, expiresDate: transaction.expiresDate?.date, revocationDate: transaction.revocationDate?.date,
            appAccountToken: transaction.appAccountToken?.uuid, signedDate: transaction.signedDate?.date, signedTransaction: signedTransaction,
            payload: transactionJSON)
    }

    /// The subscription as this data describes it; `status` is Apple's when it gave one, else derived.
    func subscriptionRow(appId: UUID, customer: UUID?, status: Status?, now: Date = Date()) -> SubscriptionRow {
        let signed = [transaction.signedDate?.date, renewal?.signedDate?.date].compactMap { $0 }.max() ?? now
        return SubscriptionRow(
            appId: appId, environment: environment, originalTransactionId: originalTransactionId,
            subscriptionGroupIdentifier: transaction.subscriptionGroupIdentifier, customer: customer, status: (status ?? derivedStatus(now: now)).rawValue,
            productId: transaction.productId ?? "", latestTransactionId: transactionId, purchaseDate: transaction.purchaseDate?.date,
            expiresDate: transaction.expiresDate?.date, autoRenewStatus: renewal.map { $0.autoRenewStatus == .on }, autoRenewProductId: renewal?.autoRenewProductId,
            inBillingRetry: renewal?.isInBillingRetryPeriod ?? false, gracePeriodExpiresDate: renewal?.gracePeriodExpiresDate?.date,
            offerType: transaction.offerType?.rawValue, offerIdentifier: transaction.offerIdentifier, price: transaction.price, currency: transaction.currency,
            signedDate: signed)
    }

    /// Apple's status, worked out from the transaction and renewal info when the data carries none.
    func derivedStatus(now: Date) -> Status {
        if transaction.revocationDate != nil { return .revoked }
        if let expires = transaction.expiresDate?.date, expires > now { return .active }
        if let grace = renewal?.gracePeriodExpiresDate?.date, grace > now, renewal?.isInBillingRetryPeriod == true { return .billingGracePeriod }
        if renewal?.isInBillingRetryPeriod == true { return .billingRetry }
        return .expired
    }
}
