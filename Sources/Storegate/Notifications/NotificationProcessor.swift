import AppStoreServer
import Foundation

/// Applies stored notifications to the tenant's state, each exactly once: transactions, subscriptions,
/// refund outcomes and consumption requests. The job worker runs it once a notification is stored, and
/// again later for one that could not be applied yet.
public struct NotificationProcessor: Sendable {
    let persistence: any Persistence
    let verification: Verification
    /// For a subscription's history when a renewal arrives before its purchase (`earlierHistory`).
    let gateway: AppStoreGateway

    /// Applies stored notifications of one tenant together: read in one unit (from the tenant's data or
    /// the inbox), then applied in one transaction that takes them in from the inbox, locks them once,
    /// marks them processed once and completes their jobs once, with one statement per change in between. Each is applied exactly once: one already applied (here or by
    /// another worker) is skipped, and its job completed. The job worker applies a batch of up to 16, or
    /// one at a time when a batch failed.
    ///
    /// Returns the notifications to try again later, with why (a verification failure that may pass);
    /// every other one was applied now or before. Throws when the batch as a whole failed: then nothing of
    /// it was kept, and each can still be applied on its own.
    public func process(tenant: Tenant, notificationUUIDs uuids: [UUID]) async throws -> [UUID: any Error] {
        let (pending, apps) = try await persistence.inTenant(tenant, .read) { unit in
            (try await unit.notifications.unprocessed(uuids), try await unit.apps.list())
        }
        let appsById = Dictionary(apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var ready: [Ready] = []
        var later: [UUID: any Error] = [:]
        // Verified side by side: the signatures are most of a batch's work outside the database.
        await withTaskGroup(of: (Int, Result<Ready, any Error>).self) { group in
            for (index, stored) in pending.enumerated() {
                group.addTask {
                    do {
                        return (index, .success(try await prepare(stored, app: appsById[stored.appId])))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var results: [(Int, Result<Ready, any Error>)] = []
            for await result in group { results.append(result) }
            // In the order read, as before they were verified side by side.
            for (index, result) in results.sorted(by: { $0.0 < $1.0 }) {
                switch result {
                case .success(let prepared): ready.append(prepared)
                case .failure(let error): later[pending[index].notificationUUID] = error
                }
            }
        }
        // Applied in the order Apple signed them, whatever the order they arrived in.
        ready.sort { a, b in
            (a.stored.signedDate ?? .distantFuture, a.stored.receivedAt ?? .distantFuture) < (
                b.stored.signedDate ?? .distantFuture, b.stored.receivedAt ?? .distantFuture
            )
        }
        let earlier = try await earlierHistory(tenant: tenant, ready)
        let prepared = Set(ready.map(\.stored.notificationUUID))
        let unseen = try await persistence.inTenant(tenant) { unit in
            try await unit.notifications.takeFromInbox(uuids)
            // Every one of the batch still unprocessed, locked. One the read above did not see (it read a
            // node that had not yet seen it: a standby, just after a failover) is not settled here: its
            // job is tried again.
            let unapplied = try await unit.notifications.lockUnprocessed(uuids.filter { later[$0] == nil })
            let settled = uuids.filter { later[$0] == nil && (!unapplied.contains($0) || prepared.contains($0)) }
            var processed: [(UUID, String?, String?)] = []
            var events: [NewEvent] = []
            let applying = ready.filter { unapplied.contains($0.stored.notificationUUID) }
            // The series it stores, locked before any is written: another batch of the tenant's may store
            // some of them too, in another order.
            try await unit.transactions.lockSeries(
                applying.compactMap { ready in
                    guard case .purchase(let purchase) = ready.effect, let app = ready.app else { return nil }
                    return purchase.series(in: app)
                })
            var next = 0
            while next < applying.count {
                // Consecutive notifications that store a purchase and nothing more, each of another series,
                // are stored together (`SignedPurchase.store(_:in:)`); any other is applied on its own.
                var together: [(Ready, SignedPurchase.ToStore)] = []
                var series: Set<SeriesKey> = []
                while next < applying.count, let item = applying[next].storesOnly(earlier: earlier),
                    series.insert(item.purchase.series(in: item.app)).inserted
                {
                    together.append((applying[next], item))
                    next += 1
                }
                if together.isEmpty {
                    let notification = applying[next]
                    next += 1
                    if case .purchase(let purchase) = notification.effect, let app = notification.app {
                        for past in earlier[purchase.originalTransactionId] ?? [] {
                            events += try await past.store(app: app, status: nil, subscriptionState: false, in: unit).events
                        }
                    }
                    events += try await apply(notification, in: unit)
                    processed.append((notification.stored.notificationUUID, notification.problem, notification.originalTransactionId))
                    continue
                }
                let stored = try await SignedPurchase.store(together.map(\.1), in: unit)
                for ((notification, _), result) in zip(together, stored) {
                    events += [try Events.notificationReceived(notification.stored)] + result.events
                    processed.append((notification.stored.notificationUUID, notification.problem, notification.originalTransactionId))
                }
            }
            try await unit.notifications.markProcessed(processed)
            try await unit.completeJobs(.processNotification, refs: settled.map(\.uuidString))
            try await unit.notifications.takeFromInbox(settled)
            try await unit.events.append(events)
            return unapplied.subtracting(prepared)
        }
        for uuid in unseen { later[uuid] = StoregateError.unavailable(reason: "notification \(uuid) was not yet seen where it was read") }
        return later
    }

    /// The transactions Apple's Get Transaction History has before the renewals of `ready` whose subscription
    /// has nothing stored yet (the purchase's notification is late, or the app came to Storegate mid-way),
    /// by `originalTransactionId`, oldest first: stored before the renewal, they make the events the
    /// customer's history implies in its order (the purchase's notification, when it comes, adds none).
    /// One read for the batch; Apple is asked only for such a subscription, and what cannot be had from
    /// Apple is left out (the renewal is applied all the same).
    func earlierHistory(tenant: Tenant, _ ready: [Ready]) async throws -> [String: [SignedPurchase]] {
        var renewals: [UUID: (App, [SignedPurchase])] = [:]
        var firsts: Set<String> = []
        for notification in ready {
            guard case .purchase(let purchase) = notification.effect, let app = notification.app, purchase.isSubscription else { continue }
            if purchase.transactionId == purchase.originalTransactionId {
                firsts.insert(purchase.originalTransactionId)
            } else {
                renewals[app.id, default: (app, [])].1.append(purchase)
            }
        }
        for (appId, (app, purchases)) in renewals { renewals[appId] = (app, purchases.filter { !firsts.contains($0.originalTransactionId) }) }
        renewals = renewals.filter { !$0.value.1.isEmpty }
        guard !renewals.isEmpty else { return [:] }
        let known = try await persistence.inTenant(tenant, .read) { unit in
            var known: Set<String> = []
            for (appId, (_, purchases)) in renewals {
                known.formUnion(try await unit.transactions.knownSeries(appId: appId, originalTransactionIds: purchases.map(\.originalTransactionId)))
            }
            return known
        }
        var found: [String: [SignedPurchase]] = [:]
        for (_, (app, purchases)) in renewals {
            for purchase in purchases where !known.contains(purchase.originalTransactionId) && found[purchase.originalTransactionId] == nil {
                let before = purchase.transaction.purchaseDate?.date ?? .distantFuture
                do {
                    let client = try await gateway.client(tenant: tenant, app: app, environment: purchase.environment)
                    let page = try await TransactionService.historyPages(
                        client, anyTransactionId: purchase.originalTransactionId,
                        request: TransactionHistoryRequest(endDate: Timestamp(before), sort: .ascending))
                    var earlier: [SignedPurchase] = []
                    for signed in page.signed {
                        let past = try await verification.purchase(
                            signedTransaction: signed, signedRenewalInfo: nil, app: app, environment: purchase.environment, field: "signedTransactions")
                        if past.originalTransactionId == purchase.originalTransactionId, past.transactionId != purchase.transactionId,
                            (past.transaction.purchaseDate?.date ?? .distantFuture) < before
                        {
                            earlier.append(past)
                        }
                    }
                    found[purchase.originalTransactionId] = earlier
                } catch {
                    found[purchase.originalTransactionId] = []
                }
            }
        }
        return found
    }

    /// A stored notification ready to apply: decoded, and what it changes worked out (its nested signed
    /// data verified), or the problem that keeps it from changing anything.
    struct Ready: Sendable {
        let stored: StoredNotification
        let decoded: ResponseBodyV2DecodedPayload
        let app: App?
        let effect: Effect
        /// Recorded as the notification's processing error.
        let problem: String?

        /// The purchase to store when that is all applying it does (`apply`): a transaction with no earlier
        /// history to store first, of a type that asks for nothing more (no refund, no consumption request).
        func storesOnly(earlier: [String: [SignedPurchase]]) -> SignedPurchase.ToStore? {
            guard case .purchase(let purchase) = effect, let app, (earlier[purchase.originalTransactionId] ?? []).isEmpty else { return nil }
            switch NotificationAction(stored.notificationType) {
            case .store, .consentRescinded, .nothing: return SignedPurchase.ToStore(purchase: purchase, app: app, status: decoded.data?.status)
            case .refundOutcome, .consumptionRequest: return nil
            }
        }

        /// The purchase series it is about, recorded with it (an erasure finds it by this): '' when it is
        /// about none, nil when that is not known (it could not be applied).
        var originalTransactionId: String? {
            if case .purchase(let purchase) = effect { return purchase.originalTransactionId }
            return problem == nil ? "" : nil
        }
    }

    /// Works out what applying `stored` changes, outside any unit of work. Throws when it should be tried
    /// again later: a verification failure that may pass, or a payload that cannot be read.
    func prepare(_ stored: StoredNotification, app: App?) async throws -> Ready {
        guard let payload = stored.payload else {
            throw StoregateError.invalid(field: "signedPayload", reason: stored.signedPayload == nil ? "was dropped (data retention)" : "is not a compact JWS")
        }
        let decoded = try JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: payload)
        guard let app else { return Ready(stored: stored, decoded: decoded, app: nil, effect: .nothing, problem: "the app was removed") }
        do {
            return Ready(stored: stored, decoded: decoded, app: app, effect: try await effect(of: decoded, stored: stored, app: app), problem: nil)
        } catch StoregateError.unverified(let field, let failure) where failure.isRetryable {
            throw StoregateError.unverified(field: field, failure: failure)
        } catch {
            return Ready(stored: stored, decoded: decoded, app: app, effect: .nothing, problem: "\(error)")
        }
    }

    /// Stores what a ready notification changes, in `unit` (which also marks it processed). Returns the
    /// events it makes, `notification.received` first, for the unit to append last.
    func apply(_ ready: Ready, in unit: any TenantUnit) async throws -> [NewEvent] {
        var events = [try Events.notificationReceived(ready.stored)]
        guard let app = ready.app else { return events }
        switch ready.effect {
        case .purchase(let purchase): events += try await apply(ready.decoded, stored: ready.stored, purchase: purchase, app: app, in: unit)
        case .appTransaction(let appTransaction): try await unit.appTransactions.upsert(appTransaction)
        case .externalPurchaseToken(let token): try await unit.externalPurchaseTokens.record(token)
        case .extensionSummary(let summary): try await unit.extensions.recordSummary(summary)
        case .nothing: break
        }
        return events
    }

    /// Marks a notification that keeps failing as processed, with its error, and drops its job.
    func giveUp(tenant: Tenant, notificationUUID: UUID, error: String) async throws {
        try await persistence.inTenant(tenant) { unit in
            try await unit.notifications.takeFromInbox([notificationUUID])
            try await unit.notifications.markProcessed([(notificationUUID, error, nil)])
            try await unit.completeJobs(.processNotification, refs: [notificationUUID.uuidString])
            try await unit.notifications.takeFromInbox([notificationUUID])
        }
    }

    private func apply(
        _ notification: ResponseBodyV2DecodedPayload, stored: StoredNotification, purchase: SignedPurchase, app: App, in unit: any TenantUnit
    ) async throws -> [NewEvent] {
        let (customer, purchaseEvents) = try await purchase.store(app: app, status: notification.data?.status, in: unit)
        var events = purchaseEvents
        let transaction = purchase.transaction
        switch NotificationAction(stored.notificationType) {
        case .refundOutcome:
            let outcome = RefundOutcome(
                purchase, appId: app.id, outcome: stored.notificationType, source: .notification, notificationUUID: stored.notificationUUID,
                customer: customer, signedDate: stored.signedDate)
            events += try await outcome.record(purchase, app: app, in: unit)
        case .consumptionRequest:
            let requestedAt = stored.signedDate ?? Date()
            let request = RefundRequest(
                id: stored.notificationUUID, appId: app.id, environment: purchase.environment, transactionId: purchase.transactionId,
                originalTransactionId: purchase.originalTransactionId, productType: transaction.type ?? ProductType(rawValue: ""), customer: customer,
                reason: notification.data?.consumptionRequestReason, requestedAt: requestedAt, deadline: requestedAt + RefundRequest.answerWindow)
            if try await unit.refunds.open(request) {
                events.append(try Events.consumptionRequested(request))
                let hasFacts = try await unit.refunds.facts(appId: app.id, transactionId: purchase.transactionId) != nil
                let policy = try await unit.refunds.policy(appId: app.id) ?? RefundPolicy()
                let due = hasFacts ? Date() : RefundService.policyTime(deadline: request.deadline, policy: policy)
                try await unit.enqueue(.sendConsumption, ref: request.id.uuidString, due: due)
            }
        case .store, .consentRescinded, .nothing:
            break
        }
        return events
    }
}
