import AppStoreServer
import Foundation

/// Erasure of a customer (`customers.delete`, `storegate customer delete`, the console for admins): the
/// GDPR's Art. 17 and the CCPA's deletion. What is deleted, what is kept to answer Apple and why: docs/API.md
/// "Erasure". Evented (`customer.deleted`), audited, and idempotent: a customer id Storegate does not hold
/// is answered `deleted: false`.
public struct CustomerErasureService: Sendable {
    let persistence: any Persistence

    /// Notifications labelled with their purchase series per unit, before an erasure looks for them.
    static let labelPage = 500

    public func delete(tenant: Tenant, customerId: String, actor: Actor) async throws -> CustomerErasure {
        guard try await persistence.inTenant(tenant, .read, { try await $0.customers.find(customerId: customerId) }) != nil else { return .nothing }
        try await labelNotifications(tenant: tenant)
        let erasure = UUID()
        let erasureId = PrefixedID.encode("ers_", erasure)
        return try await persistence.inTenant(tenant) { unit in
            guard let customer = try await unit.customers.find(customerId: customerId) else { return .nothing }
            try await unit.customerProfiles.lock(customer: customer.id)
            let done = try await unit.customerErasure.erase(customer: customer, erasure: erasure)
            try await unit.events.append([try Events.customerDeleted(erasureId: erasureId)])
            try await unit.audit(actor, "customer.delete", ["customerId": erasureId])
            return CustomerErasure(
                deleted: true, erasureId: erasureId, transactions: done.transactions, subscriptions: done.subscriptions, notifications: done.notifications,
                events: done.events, refunds: done.refunds, auditEntries: done.auditEntries, links: done.links, grants: done.grants, notes: done.notes,
                attributes: done.attributes)
        }
    }

    /// Records the purchase series of the notifications processed before it was recorded as they were
    /// processed (tenant migration 27), a page per unit: once for a tenant, at its first erasure.
    func labelNotifications(tenant: Tenant) async throws {
        var after: UUID?
        while true {
            let page = try await persistence.inTenant(tenant) { unit in
                let found = try await unit.customerErasure.unlabelledNotifications(after: after, limit: Self.labelPage)
                try await unit.customerErasure.label(found.map { ($0.notificationUUID, Self.series(ofSignedPayload: $0.signedPayload)) })
                return found.last?.notificationUUID
            }
            guard let page else { return }
            after = page
        }
    }

    /// The `originalTransactionId` a notification's signed payload is about, read without verifying (it was
    /// verified when processed); '' when it is about none or cannot be read.
    static func series(ofSignedPayload signed: String) -> String {
        guard let payload = CompactJWS(signed)?.decodedPayload,
            let decoded = try? JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: payload),
            let transaction = decoded.data?.signedTransactionInfo.flatMap({ CompactJWS($0)?.decodedPayload }),
            let info = try? JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: transaction)
        else { return "" }
        return info.originalTransactionId ?? ""
    }
}
