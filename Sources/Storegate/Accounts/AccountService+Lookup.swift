import Foundation

extension AccountService {
    /// The customer with this id, with their links; never created.
    public func get(tenant: Tenant, customerId: String) async throws -> LinkedCustomer {
        let customerId = try Validate.customerId(customerId)
        let view = try await persistence.inTenant(tenant, .read) { unit in
            guard let customer = try await unit.customers.find(customerId: customerId) else { throw StoregateError.notFound(field: "customerId") }
            return CustomerView(customer: customer, links: try await unit.customers.links(customer: customer.id))
        }
        return try await LinkedCustomer(view, directory: directory, tenant: tenant)
    }

    /// The customer support is looking for, by whatever the customer or a colleague quotes: the tenant's
    /// customer id, an appAccountToken, any of an app's transaction IDs (transactionId,
    /// originalTransactionId, appTransactionId) or an order ID from the App Store invoice. Nil when nothing
    /// matches; another tenant's customers are never in reach.
    public func find(tenant: Tenant, query: String) async throws -> String? {
        let query = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...128).contains(query.count) else { throw StoregateError.invalid(field: "q", reason: "must be 1 to 128 characters") }
        return try await persistence.inTenant(tenant, .read) { unit -> String? in
            if let customer = try await unit.customers.find(customerId: query) { return customer.customerId }
            var found: UUID?
            if let token = UUID(uuidString: query) { found = try await unit.customers.find(appAccountToken: token)?.id }
            if found == nil, (try? Validate.transactionId(query, field: "q")) != nil {
                for app in try await unit.apps.list() where found == nil {
                    found = try await unit.transactions.facts(appId: app.id, transactionId: query)?.customer
                    for kind in [AccountLink.Kind.originalTransactionId, .appTransactionId] where found == nil {
                        found = try await unit.customers.link(appId: app.id, kind: kind, value: query)?.customer
                    }
                }
            }
            if found == nil, let orderId = try? Validate.orderId(query.uppercased(), field: "q") {
                found = try await unit.transactions.customer(orderId: orderId, appId: nil)
            }
            guard let found else { return nil }
            return try await unit.customers.find(id: found)?.customerId
        }
    }
}
