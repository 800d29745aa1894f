import ArgumentParser
import Foundation
import Storegate

/// `storegate customer …`: one customer of a tenant, as the `customers.*` methods reach them.
struct CustomerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "customer", abstract: "A customer of a tenant.", subcommands: [Delete.self])

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Erase a customer (GDPR Art. 17, CCPA): what `customers.delete` does, audited as the CLI.",
            discussion: "It cannot be undone: --yes says so. What is deleted and what is kept: docs/API.md, Erasure.")
        @OptionGroup var tenant: TenantOption
        @Option(help: "The tenant's id of the customer.") var customerId: String
        @Flag(help: "Erase: the customer's data cannot be brought back.") var yes = false

        func validate() throws {
            guard yes else { throw ValidationError("erasing \(customerId) cannot be undone: add --yes") }
        }

        func run() async throws {
            let customerId = customerId
            let done = try await tenant.run { capabilities, tenant in
                try await capabilities.customerErasure.delete(tenant: tenant, customerId: customerId, actor: .cli)
            }
            guard done.deleted, let erasureId = done.erasureId else {
                print("nothing held for \(customerId): nothing erased")
                return
            }
            print(
                "erased as \(erasureId): \(done.transactions) transactions, \(done.subscriptions) subscriptions, \(done.refunds) refund records, "
                    + "\(done.events) events and \(done.auditEntries) audit entries kept without them; \(done.notifications) signed notifications "
                    + "dropped; \(done.links) links, \(done.grants) grants, \(done.notes) notes, \(done.attributes) attributes deleted")
        }
    }
}
