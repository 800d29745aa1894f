import Foundation

/// `entitlements.changed`, exactly once per change: every tenant unit of work that wrote customers'
/// holdings ends with `record` for those customers (`Persistence.endUnitsThatWriteHoldings`), inside its
/// transaction. Their names now (`ActiveEntitlements`, as of the write) are compared with the names last
/// evented, kept per customer; an event is appended, and the names kept, only for a customer whose set
/// differs. One statement reads every customer's holdings and last names; a unit that changed a set adds
/// two (the names kept, the events appended). The catalog and the bundle IDs come from this process's
/// caches (loaded through the unit when not held).
///
/// "Now" is the write's: an expiry that passes with no write is evented with the customer's next write,
/// and a catalog change is not evented per customer (the next write of each customer reports its names
/// under the new catalog).
struct EntitlementChanges: Sendable {
    let catalogs: CatalogCache
    let directory: AppDirectory

    func record(in unit: any TenantUnit, customers: Set<UUID>, now: Date = Date()) async throws {
        let tenant = unit.tenant
        let catalog = try await catalogs.catalog(tenant: tenant.id) { try await unit.catalog.catalog() }
        let found = try await unit.entitlementsEvented.holdingsAndEvented(customers: customers.sorted { $0.uuidString < $1.uuidString })
        let appIds = found.flatMap { $0.holdings.subscriptions.map(\.appId) + $0.holdings.purchases.map(\.appId) + $0.holdings.grants.compactMap(\.appId) }
        let bundleIds = try await directory.bundleIds(tenant: tenant, covering: appIds) { try await unit.apps.list() }
        var evented: [(customer: UUID, names: [String])] = []
        var events: [NewEvent] = []
        for (holdings, before) in found {
            let after = ActiveEntitlements(catalog: catalog, holdings: holdings, now: now, bundleIds: bundleIds).names
            guard after != before else { continue }
            evented.append((holdings.customer, after))
            events.append(try Events.entitlementsChanged(customer: holdings.customer, before: before, after: after))
        }
        guard !events.isEmpty else { return }
        try await unit.entitlementsEvented.record(evented)
        try await unit.events.append(events)
    }
}
