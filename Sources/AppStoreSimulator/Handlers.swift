import AppStoreServer
import Foundation
import Hummingbird

extension AppStoreSimulator {
    /// A page of `items` after the opaque cursor `after`: the items, the next cursor, whether more remain.
    static func page<T>(_ items: [T], after cursor: String?, size: Int = pageSize) -> ([T], String, Bool) {
        let start = cursor.flatMap { Int($0.split(separator: "_").last ?? "") } ?? 0
        let end = min(items.count, start + size)
        let slice = start < end ? Array(items[start..<end]) : []
        return (slice, "rev_\(end)", end < items.count)
    }

    func decodeBody<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T? {
        var request = request
        let body = try await request.collectBody(upTo: 1 << 20)
        return try? JSONDecoder().decode(T.self, from: Data(body.readableBytesView))
    }

    func history(_ request: Request, _ context: SimulatorContext) async throws -> Response {
        guard let app = await store.app(context.bundleId) else { return Self.error(.appNotFound, "App not found.", status: .notFound) }
        guard var items = await store.customerTransactions(bundleId: context.bundleId, anyId: try context.parameters.require("id")) else {
            return Self.error(.transactionIdNotFound, "Transaction id not found.", status: .notFound)
        }
        let query = request.uri.queryParameters
        let productIds = query.getAll("productId").map { String($0) }
        if !productIds.isEmpty { items = items.filter { productIds.contains($0.productId ?? "") } }
        let typeNames: [String: ProductType] = [
            "AUTO_RENEWABLE": .autoRenewableSubscription, "NON_RENEWABLE": .nonRenewingSubscription, "CONSUMABLE": .consumable,
            "NON_CONSUMABLE": .nonConsumable,
        ]
        let types = query.getAll("productType").compactMap { typeNames[String($0)] }
        if !types.isEmpty { items = items.filter { $0.type.map(types.contains) ?? false } }
        if let revoked = query["revoked"] { items = items.filter { ($0.revocationDate != nil) == (revoked == "true") } }
        let groups = query.getAll("subscriptionGroupIdentifier").map { String($0) }
        if !groups.isEmpty { items = items.filter { groups.contains($0.subscriptionGroupIdentifier ?? "") } }
        if let ownership = query["inAppOwnershipType"] { items = items.filter { $0.inAppOwnershipType?.rawValue == String(ownership) } }
        if let start = query["startDate"].flatMap({ Double(String($0)) }) { items = items.filter { ($0.purchaseDate?.millisecondsSince1970 ?? 0) >= start } }
        if let end = query["endDate"].flatMap({ Double(String($0)) }) { items = items.filter { ($0.purchaseDate?.millisecondsSince1970 ?? 0) < end } }
        if query["sort"] == "DESCENDING" { items.reverse() }
        let (page, revision, more) = Self.page(items, after: query["revision"].map(String.init))
        return Self.json(
            HistoryResponse(
                revision: revision, hasMore: more, bundleId: app.bundleId, appAppleId: app.appAppleId, environment: app.environment,
                signedTransactions: try page.map { try ca.sign($0) }))
    }

    /// A subscription's status as Apple computes it.
    func status(of transaction: JWSTransactionDecodedPayload, renewal: JWSRenewalInfoDecodedPayload?) -> Status {
        let now = Timestamp(now())
        if transaction.revocationDate != nil { return .revoked }
        if let expires = transaction.expiresDate, expires > now { return .active }
        if let grace = renewal?.gracePeriodExpiresDate, grace > now { return .billingGracePeriod }
        if renewal?.isInBillingRetryPeriod == true { return .billingRetry }
        return .expired
    }

    func statuses(_ request: Request, _ context: SimulatorContext) async throws -> Response {
        guard let app = await store.app(context.bundleId) else { return Self.error(.appNotFound, "App not found.", status: .notFound) }
        guard let items = await store.customerTransactions(bundleId: context.bundleId, anyId: try context.parameters.require("id")) else {
            return Self.error(.transactionIdNotFound, "Transaction id not found.", status: .notFound)
        }
        let wanted = Set(request.uri.queryParameters.getAll("status").compactMap { Int32(String($0)) })
        var groups: [String: [LastTransactionsItem]] = [:]
        var order: [String] = []
        let subscriptions = items.filter { $0.type == .autoRenewableSubscription }
        for original in Set(subscriptions.compactMap(\.originalTransactionId)).sorted() {
            // The most recent transaction of the subscription (the store keeps them in the order they happened).
            guard let latest = subscriptions.last(where: { $0.originalTransactionId == original }) else { continue }
            let renewal = await store.renewal(originalTransactionId: original)
            let status = status(of: latest, renewal: renewal)
            guard wanted.isEmpty || wanted.contains(status.rawValue) else { continue }
            let group = latest.subscriptionGroupIdentifier ?? ""
            if groups[group] == nil { order.append(group) }
            groups[group, default: []].append(
                LastTransactionsItem(
                    status: status, originalTransactionId: original, signedTransactionInfo: try ca.sign(latest),
                    signedRenewalInfo: try renewal.map { try ca.sign($0) }))
        }
        return Self.json(
            StatusResponse(
                environment: app.environment, bundleId: app.bundleId, appAppleId: app.appAppleId,
                data: order.map { SubscriptionGroupIdentifierItem(subscriptionGroupIdentifier: $0, lastTransactions: groups[$0]) }))
    }

    func extend(_ request: Request, _ context: SimulatorContext) async throws -> Response {
        let original = try context.parameters.require("id")
        guard let body = try await decodeBody(ExtendRenewalDateRequest.self, request) else {
            return Self.error(.generalBadRequest, "Bad request.", status: .badRequest)
        }
        guard let days = body.extendByDays, (1...90).contains(days) else {
            return Self.error(.invalidExtendByDays, "Invalid extend by days value.", status: .badRequest)
        }
        guard let reason = body.extendReasonCode, reason.isKnown else {
            return Self.error(.invalidExtendReasonCode, "Invalid extend reason code.", status: .badRequest)
        }
        guard body.requestIdentifier?.isEmpty == false else { return Self.error(.invalidRequestIdentifier, "Invalid request identifier.", status: .badRequest) }
        guard let extended = await store.extend(bundleId: context.bundleId, originalTransactionId: original, days: Int(days)) else {
            return Self.error(.originalTransactionIdNotFound, "Original transaction id not found.", status: .notFound)
        }
        switch extended {
        case .failure(let code): return Self.error(code, "Subscriptions that are not eligible cannot be extended.", status: .forbidden)
        case .success(let transaction):
            try await notify(
                .renewalExtended, bundleId: context.bundleId, transaction: transaction, renewal: await store.renewal(originalTransactionId: original))
            return Self.json(
                ExtendRenewalDateResponse(
                    originalTransactionId: original, webOrderLineItemId: transaction.webOrderLineItemId, success: true, effectiveDate: transaction.expiresDate))
        }
    }

    func massExtend(_ request: Request, _ context: SimulatorContext) async throws -> Response {
        guard let body = try await decodeBody(MassExtendRenewalDateRequest.self, request), let productId = body.productId,
            let requestIdentifier = body.requestIdentifier
        else { return Self.error(.generalBadRequest, "Bad request.", status: .badRequest) }
        guard let days = body.extendByDays, (1...90).contains(days) else {
            return Self.error(.invalidExtendByDays, "Invalid extend by days value.", status: .badRequest)
        }
        guard let app = await store.app(context.bundleId) else { return Self.error(.appNotFound, "App not found.", status: .notFound) }
        let (succeeded, failed) = await store.extendAll(bundleId: context.bundleId, productId: productId, days: Int(days))
        await store.setMassExtension(
            MassExtendRenewalDateStatusResponse(
                requestIdentifier: requestIdentifier, complete: true, completeDate: Timestamp(now()), succeededCount: Int64(succeeded.count),
                failedCount: Int64(failed.count)),
            productId: productId)
        // Apple announces each extended subscription, each one that could not be extended, then the summary.
        for transaction in succeeded {
            try await notify(
                .renewalExtended, bundleId: context.bundleId, transaction: transaction,
                renewal: await store.renewal(originalTransactionId: transaction.originalTransactionId ?? ""))
        }
        for transaction in failed {
            try await notify(
                .renewalExtension, subtype: .failure, bundleId: context.bundleId, transaction: transaction,
                renewal: await store.renewal(originalTransactionId: transaction.originalTransactionId ?? ""))
        }
        try await notify(
            .renewalExtension, subtype: .summary, bundleId: context.bundleId,
            body: .summary(
                Summary(
                    environment: app.environment, appAppleId: app.appAppleId, bundleId: context.bundleId, productId: productId,
                    requestIdentifier: requestIdentifier, storefrontCountryCodes: body.storefrontCountryCodes, succeededCount: Int64(succeeded.count),
                    failedCount: Int64(failed.count))))
        return Self.json(MassExtendRenewalDateResponse(requestIdentifier: requestIdentifier))
    }

    func notificationHistory(_ request: Request, _ context: SimulatorContext) async throws -> Response {
        guard let body = try await decodeBody(NotificationHistoryRequest.self, request), let start = body.startDate, let end = body.endDate else {
            return Self.error(.generalBadRequest, "Bad request.", status: .badRequest)
        }
        guard start < end else {
            return Self.error(.startDateAfterEndDate, "Invalid request. The end date precedes the start date or the dates are the same.", status: .badRequest)
        }
        if body.transactionId != nil && body.notificationType != nil {
            return Self.error(
                .multipleFiltersSupplied, "Invalid request. Supply either a transaction id or a notification type, but not both.", status: .badRequest)
        }
        var items = await store.notifications(bundleId: context.bundleId).filter { item in
            guard let signed = item.payload.signedDate, signed >= start, signed < end else { return false }
            if let type = body.notificationType, item.payload.notificationType != type { return false }
            if let subtype = body.notificationSubtype, item.payload.subtype != subtype { return false }
            if body.onlyFailures == true, !item.attempts.contains(where: { $0.sendAttemptResult != .success }) { return false }
            return true
        }
        if let transactionId = body.transactionId {
            var matching: [(payload: ResponseBodyV2DecodedPayload, signed: String, attempts: [SendAttemptItem])] = []
            for item in items where await store.notification(item.payload, concerns: transactionId) { matching.append(item) }
            items = matching
        }
        let (page, token, more) = Self.page(items, after: request.uri.queryParameters["paginationToken"].map(String.init))
        return Self.json(
            NotificationHistoryResponse(
                paginationToken: token, hasMore: more,
                notificationHistory: page.map { NotificationHistoryResponseItem(signedPayload: $0.signed, sendAttempts: $0.attempts) }))
    }

    func requestTestNotification(_ context: SimulatorContext) async throws -> Response {
        guard let app = await store.app(context.bundleId) else { return Self.error(.appNotFound, "App not found.", status: .notFound) }
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: .test, notificationUUID: UUID().uuidString.lowercased(),
            data: NotificationData(environment: app.environment, appAppleId: app.appAppleId, bundleId: app.bundleId), version: "2.0",
            signedDate: Timestamp(now()))
        let signed = try ca.sign(payload)
        let token = UUID().uuidString.lowercased() + "_" + String(Int64(now().timeIntervalSince1970 * 1000))
        await store.addTestNotification(token: token, signed: signed)
        await store.appendNotification(bundleId: app.bundleId, payload: payload, signed: signed, attempts: [])
        if let url = await store.notificationURL(bundleId: app.bundleId), let sender {
            let store = store
            sender.deliver(signed, to: url) { attempt in await store.recordAttempt(signed: signed, attempt: attempt) }
        }
        return Self.json(SendTestNotificationResponse(testNotificationToken: token))
    }

    func consumption(_ request: Request, _ context: SimulatorContext, version: Int) async throws -> Response {
        let id = try context.parameters.require("id")
        var request = request
        let body = Data(try await request.collectBody(upTo: 1 << 20).readableBytesView)
        guard await store.transaction(bundleId: context.bundleId, id: id) != nil else {
            return Self.error(.transactionIdNotFound, "Transaction id not found.", status: .notFound)
        }
        if version == 2 {
            guard let consumption = try? JSONDecoder().decode(ConsumptionRequest.self, from: body) else {
                return Self.error(.generalBadRequest, "Bad request.", status: .badRequest)
            }
            guard consumption.customerConsented else {
                return Self.error(.invalidCustomerConsented, "Invalid request. The customer consented field is invalid.", status: .badRequest)
            }
            guard consumption.deliveryStatus.isKnown else {
                return Self.error(.invalidDeliveryStatus, "Invalid request. The delivery status field is invalid.", status: .badRequest)
            }
            if let percentage = consumption.consumptionPercentage, !(0...100_000).contains(percentage) {
                return Self.error(.generalBadRequest, "Invalid request. The consumption percentage is invalid.", status: .badRequest)
            }
        }
        await store.recordConsumption(transactionId: id, body: body)
        return Self.accepted
    }

    func setAppAccountToken(_ request: Request, _ context: SimulatorContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let body = try await decodeBody(UpdateAppAccountTokenRequest.self, request) else {
            return Self.error(.invalidAppAccountTokenUUID, "Invalid request. The appAccountToken field must be a valid UUID.", status: .badRequest)
        }
        guard let transaction = await store.transaction(bundleId: context.bundleId, id: id) else {
            return Self.error(.transactionIdNotFound, "Transaction id not found.", status: .notFound)
        }
        guard transaction.originalTransactionId == id else {
            return Self.error(
                .transactionIdNotOriginalTransactionId, "Invalid request. The transaction ID provided is not an original transaction ID.", status: .badRequest)
        }
        guard transaction.inAppOwnershipType != .familyShared else {
            return Self.error(
                .familyTransactionNotSupported, "Invalid request. Family Sharing transactions aren't supported by this endpoint.", status: .badRequest)
        }
        await store.setAppAccountToken(originalTransactionId: id, token: body.appAccountToken)
        return Response(status: .ok)
    }
}

extension SimulatorStore {
    enum Extension {
        case success(JWSTransactionDecodedPayload)
        case failure(APIErrorCode)
    }

    /// Extends the latest transaction of a subscription; at most twice per 365 days.
    func extend(bundleId: String, originalTransactionId: String, days: Int) -> Extension? {
        let chain = transactionOrder.compactMap { transactions[$0] }.filter { $0.originalTransactionId == originalTransactionId && $0.bundleId == bundleId }
        guard var latest = chain.last, latest.type == .autoRenewableSubscription else { return nil }
        let recent = (extensions[originalTransactionId] ?? []).filter { $0 > Date().addingTimeInterval(-365 * 86_400) }
        guard recent.count < 2 else { return .failure(.subscriptionMaxExtension) }
        guard latest.inAppOwnershipType != .familyShared else { return .failure(.familySharedSubscriptionExtensionIneligible) }
        let expires = (latest.expiresDate?.date ?? Date()).addingTimeInterval(Double(days) * 86_400)
        latest.expiresDate = Timestamp(expires)
        latest.signedDate = Timestamp(Date())
        update(latest)
        if var renewal = renewals[originalTransactionId] {
            renewal.renewalDate = latest.expiresDate
            updateRenewal(renewal)
        }
        extensions[originalTransactionId] = recent + [Date()]
        return .success(latest)
    }

    /// Extends every subscription of the product that has not expired; returns those extended and those refused.
    func extendAll(bundleId: String, productId: String, days: Int) -> (succeeded: [JWSTransactionDecodedPayload], failed: [JWSTransactionDecodedPayload]) {
        let now = Date()
        let originals = Set(
            transactions.values.filter { $0.bundleId == bundleId && $0.productId == productId && $0.type == .autoRenewableSubscription }.compactMap(
                \.originalTransactionId))
        var succeeded: [JWSTransactionDecodedPayload] = []
        var failed: [JWSTransactionDecodedPayload] = []
        for original in originals.sorted() {
            guard let latest = latest(originalTransactionId: original), (latest.expiresDate?.date ?? .distantPast) > now else { continue }
            switch extend(bundleId: bundleId, originalTransactionId: original, days: days) {
            case .success(let transaction): succeeded.append(transaction)
            case .failure: failed.append(latest)
            case nil: continue
            }
        }
        return (succeeded, failed)
    }

    func setAppAccountToken(originalTransactionId: String, token: LowercaseUUID) {
        for id in transactionOrder where transactions[id]?.originalTransactionId == originalTransactionId {
            transactions[id]?.appAccountToken = token
        }
        renewals[originalTransactionId]?.appAccountToken = token
        appAccountTokens[originalTransactionId] = token
    }

    /// Whether a notification is about the transaction `id` (or its original transaction).
    func notification(_ payload: ResponseBodyV2DecodedPayload, concerns id: String) -> Bool {
        guard let signed = payload.data?.signedTransactionInfo, let body = signed.split(separator: ".").dropFirst().first,
            let data = Base64URL.decode(body), let transaction = try? JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: data)
        else { return false }
        return transaction.transactionId == id || transaction.originalTransactionId == id
    }
}
