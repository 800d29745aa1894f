import Foundation
import PostgresNIO
import Storegate
import StoregatePostgres
import Synchronization
import Testing

/// `accounts.ensure` of a customer who exists rewrites no key of the customer's row. A unit storing
/// anything that references the customer (a notification batch's transactions, subscriptions and links)
/// holds a key-share lock on that row until it commits; ensure does not wait for it, nor it for ensure.
@Suite struct AccountEnsureTests {
    @Test func ensuringACustomerDoesNotWaitForAUnitWritingTheirPurchases() async throws {
        try await TestDatabase.with { capabilities, _ in
            let actor = Actor("test")
            let tenant = try await capabilities.tenants.create(slug: "ensure", name: "Ensure", actor: actor)
            let app = try await capabilities.apps.add(tenant: tenant, bundleId: "com.example.ensure", appAppleId: 1, environments: ["Sandbox"], actor: actor)
            let ada = try await capabilities.accounts.ensureCustomer(tenant: tenant, customerId: "ada", actor: actor)

            let (held, holding) = AsyncStream<Void>.makeStream()
            let (released, release) = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await capabilities.persistence.inTenant(tenant) { unit in
                    try await unit.customers.setLink(appId: app.app.id, kind: .originalTransactionId, value: "2000000000000001", customer: ada.id)
                    holding.yield()
                    for await _ in released { break }
                }
            }
            for await _ in held { break }

            let ensured = Mutex<Customer?>(nil)
            let ensuring = Task {
                let customer = try await capabilities.accounts.ensureCustomer(tenant: tenant, customerId: "ada", actor: actor)
                ensured.withLock { $0 = customer }
            }
            // A backend waiting for a lock can only be ensure's, waiting for the linking unit.
            var waits = false
            do {
                try await eventually("ada ensured, or ensure waiting for a lock") {
                    if ensured.withLock({ $0 != nil }) { return true }
                    waits =
                        try await capabilities.postgres.client.withConnection { conn in
                            try await conn.first(
                                "SELECT count(*)::bigint FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()", as: Int.self,
                                logger: capabilities.postgres.logger) ?? 0
                        } > 0
                    return waits
                }
            } catch {
                release.yield()
                throw error
            }
            #expect(!waits, "ensure waits for the unit linking a series to ada")
            release.yield()
            try await holder.value
            try await ensuring.value
            #expect(ensured.withLock { $0?.id } == ada.id)
            #expect(ensured.withLock { $0?.appAccountToken } == ada.appAccountToken)
        }
    }
}
