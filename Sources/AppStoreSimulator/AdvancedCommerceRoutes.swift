import AppStoreServer
import Foundation
import Hummingbird
import NIOCore

/// `/advancedCommerce/v1/…`: the Advanced Commerce API's six server operations, behind the same bearer token
/// check as `/inApps`. Each answers the subscription's (or transaction's) signed data as it stands and sends
/// the notification Apple sends: `DID_CHANGE_RENEWAL_STATUS` for a cancellation, `REFUND` for a revocation,
/// `CONSUMPTION_REQUEST` (when the refund may be risked) or `REFUND` for a refund request, `PRICE_CHANGE`,
/// `METADATA_UPDATE`, `MIGRATION`. A request sent again with the same `requestReferenceId` and body gets the
/// same answer and changes nothing more (Apple's advice for a request that timed out); the same ID with
/// another body is `RepeatedRequestReferenceIdError`.
extension AppStoreSimulator {
    func addAdvancedCommerceRoutes(to router: Router<SimulatorContext>) {
        let api = router.group("advancedCommerce/v1")
        api.post("subscription/cancel/:id") { request, context in
            try await operate(request, context, AdvancedCommerceSubscriptionCancelRequest.self, \.requestInfo) { transaction, _ in
                try await setAutoRenew(originalTransactionId: transaction.originalTransactionId ?? "", enabled: false)
                return nil
            }
        }
        api.post("subscription/revoke/:id") { request, context in
            try await operate(request, context, AdvancedCommerceSubscriptionRevokeRequest.self, \.requestInfo) { transaction, body in
                let original = transaction.originalTransactionId ?? ""
                guard let latest = await store.latest(originalTransactionId: original), (latest.expiresDate?.date ?? .distantPast) > now(),
                    latest.revocationDate == nil
                else { return Self.error(.revokeOnInactiveSubscription, "The subscription is not active.", status: .badRequest) }
                await store.turnOffAutoRenew(originalTransactionId: original, now: now())
                try await refund(transactionId: latest.transactionId ?? "", percentage: body.refundType == .prorated ? 50_000 : 100_000)
                return nil
            }
        }
        api.post("transaction/requestRefund/:id") { request, context in
            try await operate(request, context, AdvancedCommerceRequestRefundRequest.self, \.requestInfo, subscriptionsOnly: false) { transaction, body in
                guard transaction.revocationDate == nil else { return Self.error(.alreadyRefunded, "The transaction was refunded.", status: .forbidden) }
                guard !body.items.isEmpty else { return Self.error(.malformedPayload, "items must not be empty.", status: .badRequest) }
                if body.refundRiskingPreference {
                    try await requestRefund(transactionId: transaction.transactionId ?? "")
                } else {
                    try await refund(transactionId: transaction.transactionId ?? "")
                }
                return nil
            }
        }
        api.post("subscription/changePrice/:id") { request, context in
            try await operate(request, context, AdvancedCommerceSubscriptionPriceChangeRequest.self, \.requestInfo) { transaction, body in
                guard let price = body.items.first?.price else { return Self.error(.malformedPayload, "items must not be empty.", status: .badRequest) }
                try await advancedCommerce(originalTransactionId: transaction.originalTransactionId ?? "", .priceChange(price))
                return nil
            }
        }
        api.post("subscription/changeMetadata/:id") { request, context in
            try await operate(request, context, AdvancedCommerceSubscriptionChangeMetadataRequest.self, \.requestInfo) { transaction, _ in
                try await advancedCommerce(originalTransactionId: transaction.originalTransactionId ?? "", .metadataUpdate)
                return nil
            }
        }
        api.post("subscription/migrate/:id") { request, context in
            try await operate(request, context, AdvancedCommerceSubscriptionMigrateRequest.self, \.requestInfo) { transaction, _ in
                let original = transaction.originalTransactionId ?? ""
                guard await store.migrate(originalTransactionId: original) else {
                    return Self.error(.subscriptionAlreadyMigrated, "The subscription was migrated already.", status: .badRequest)
                }
                try await advancedCommerce(originalTransactionId: original, .migration)
                return nil
            }
        }
    }

    /// One operation on the transaction the path names: the body decoded (else `MalformedPayloadError`), the
    /// transaction found in the caller's app (else `TransactionIdNotFoundError`) and, for a subscription
    /// operation, a subscription (else `SubscriptionDoesNotExistError`); `change` makes the change and sends
    /// the notification, or answers a refusal. Answers the signed latest transaction and renewal info.
    func operate<Body: Codable & Equatable & Sendable>(
        _ request: Request, _ context: SimulatorContext, _ type: Body.Type, _ info: KeyPath<Body, AdvancedCommerceRequestInfo>,
        subscriptionsOnly: Bool = true, _ change: (JWSTransactionDecodedPayload, Body) async throws -> Response?
    ) async throws -> Response {
        var request = request
        let raw = Data((try await request.collectBody(upTo: 1 << 20)).readableBytesView)
        guard let body = try? JSONDecoder().decode(Body.self, from: raw) else {
            return Self.error(.malformedPayload, "Invalid request. The payload is malformed.", status: .badRequest)
        }
        let id = try context.parameters.require("id")
        guard let transaction = await store.transaction(bundleId: context.bundleId, id: id) else {
            return Self.error(.transactionIdNotFound, "Transaction id not found.", status: .notFound)
        }
        if subscriptionsOnly, transaction.type != .autoRenewableSubscription {
            return Self.error(.subscriptionDoesNotExist, "The subscription does not exist.", status: .forbidden)
        }
        let reference = body[keyPath: info].requestReferenceId.uuid.uuidString.lowercased()
        switch await store.advancedCommerceRequest(reference, body: raw) {
        case .repeated(let answer): return Self.json(answer)
        case .conflicting:
            return Self.error(.repeatedRequestReferenceId, "The requestReferenceId was used for another request.", status: .badRequest)
        case .new: break
        }
        if let refusal = try await change(transaction, body) { return refusal }
        let original = transaction.originalTransactionId ?? id
        let latest = subscriptionsOnly ? await store.latest(originalTransactionId: original) ?? transaction : await store.transactions[id] ?? transaction
        let renewal = await store.renewal(originalTransactionId: original)
        let answer = AdvancedCommerceAnswer(signedRenewalInfo: try renewal.map { try ca.sign($0) }, signedTransactionInfo: try ca.sign(latest))
        await store.rememberAdvancedCommerceRequest(reference, body: raw, answer: answer)
        return Self.json(answer)
    }
}

/// What every Advanced Commerce operation answers (a refund request's renewal info is absent for a one-time charge).
struct AdvancedCommerceAnswer: Codable, Sendable {
    let signedRenewalInfo: String?
    let signedTransactionInfo: String
}

extension SimulatorStore {
    enum AdvancedCommerceRequest {
        case new
        case repeated(AdvancedCommerceAnswer)
        case conflicting
    }

    func advancedCommerceRequest(_ reference: String, body: Data) -> AdvancedCommerceRequest {
        guard let earlier = advancedCommerceRequests[reference] else { return .new }
        return earlier.body == body ? .repeated(earlier.answer) : .conflicting
    }

    func rememberAdvancedCommerceRequest(_ reference: String, body: Data, answer: AdvancedCommerceAnswer) {
        advancedCommerceRequests[reference] = (body, answer)
    }

    /// Marks the subscription migrated; false when it was already.
    func migrate(originalTransactionId: String) -> Bool { migrated.insert(originalTransactionId).inserted }

    func turnOffAutoRenew(originalTransactionId: String, now: Date) {
        guard var renewal = renewals[originalTransactionId] else { return }
        renewal.autoRenewStatus = .off
        renewal.commitmentInfo?.commitmentAutoRenewStatus = .off
        renewal.signedDate = Timestamp(now)
        renewals[originalTransactionId] = renewal
    }
}
