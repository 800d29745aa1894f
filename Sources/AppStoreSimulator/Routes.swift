import AppStoreServer
import Foundation
import Hummingbird

extension AppStoreSimulator {
    static let pageSize = 20

    func addRoutes(to router: Router<SimulatorContext>) {
        let api = router.group("inApps")
        api.get("v1/transactions/:id") { _, context in
            let id = try context.parameters.require("id")
            guard id.allSatisfy(\.isNumber) else { return Self.error(.invalidTransactionId, "Invalid transaction id.", status: .badRequest) }
            guard let transaction = await store.transaction(bundleId: context.bundleId, id: id) else {
                return Self.error(.transactionIdNotFound, "Transaction id not found.", status: .notFound)
            }
            return Self.json(TransactionInfoResponse(signedTransactionInfo: try ca.sign(transaction)))
        }
        api.get("v1/transactions/appTransactions/:id") { _, context in
            guard let appTransaction = await store.appTransaction(bundleId: context.bundleId, anyId: try context.parameters.require("id")) else {
                return Self.error(.appTransactionDoesNotExist, "No AppTransaction exists for the customer.", status: .notFound)
            }
            return Self.json(AppTransactionInfoResponse(signedAppTransactionInfo: try ca.sign(appTransaction)))
        }
        for version in ["v1", "v2"] {
            api.get("\(version)/history/:id") { request, context in try await history(request, context) }
        }
        api.get("v1/subscriptions/:id") { request, context in try await statuses(request, context) }
        api.get("v2/refund/lookup/:id") { request, context in
            guard let all = await store.customerTransactions(bundleId: context.bundleId, anyId: try context.parameters.require("id")) else {
                return Self.error(.transactionIdNotFound, "Transaction id not found.", status: .notFound)
            }
            let refunded = all.filter { $0.revocationDate != nil }.sorted {
                ($0.revocationDate ?? Timestamp(millisecondsSince1970: 0)) < ($1.revocationDate ?? Timestamp(millisecondsSince1970: 0))
            }
            let (page, revision, more) = Self.page(refunded, after: request.uri.queryParameters["revision"].map(String.init))
            return Self.json(RefundHistoryResponse(signedTransactions: try page.map { try ca.sign($0) }, revision: revision, hasMore: more))
        }
        api.get("v1/lookup/:orderId") { _, context in
            guard let ids = await store.order(try context.parameters.require("orderId")) else {
                return Self.json(OrderLookupResponse(status: .invalid, signedTransactions: []))
            }
            var signed: [String] = []
            for id in ids { if let transaction = await store.transaction(bundleId: context.bundleId, id: id) { signed.append(try ca.sign(transaction)) } }
            return Self.json(OrderLookupResponse(status: signed.isEmpty ? .invalid : .valid, signedTransactions: signed))
        }
        api.put("v1/subscriptions/extend/:id") { request, context in try await extend(request, context) }
        api.post("v1/subscriptions/extend/mass") { request, context in try await massExtend(request, context) }
        api.get("v1/subscriptions/extend/mass/:productId/:requestIdentifier") { _, context in
            guard
                let status = await store.massExtension(
                    productId: try context.parameters.require("productId"), requestIdentifier: try context.parameters.require("requestIdentifier"))
            else {
                return Self.error(
                    .statusRequestNotFound,
                    "The server didn't find a subscription-renewal-date extension request for this requestIdentifier and productId combination.",
                    status: .notFound)
            }
            return Self.json(status)
        }
        api.post("v1/notifications/history") { request, context in try await notificationHistory(request, context) }
        api.post("v1/notifications/test") { _, context in try await requestTestNotification(context) }
        api.get("v1/notifications/test/:token") { _, context in
            guard let signed = await store.testNotification(token: try context.parameters.require("token")) else {
                return Self.error(
                    .testNotificationNotFound, "Either the test notification token is expired or the notification and status are not yet available.",
                    status: .notFound)
            }
            let attempts = await store.notifications(bundleId: context.bundleId).first { $0.signed == signed }?.attempts ?? []
            return Self.json(CheckTestNotificationResponse(signedPayload: signed, sendAttempts: attempts))
        }
        api.put("v2/transactions/consumption/:id") { request, context in try await consumption(request, context, version: 2) }
        api.put("v1/transactions/consumption/:id") { request, context in try await consumption(request, context, version: 1) }
        api.put("v1/transactions/:id/appAccountToken") { request, context in try await setAppAccountToken(request, context) }
        api.post("v1/transactions/:id/finish") { _, context in
            guard await store.finish(bundleId: context.bundleId, transactionId: try context.parameters.require("id")) else {
                return Self.error(.transactionIdNotFound, "Transaction id not found.", status: .notFound)
            }
            return Response(status: .ok)
        }
        addRetentionRoutes(to: api)
    }
}
