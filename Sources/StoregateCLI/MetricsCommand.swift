import ArgumentParser
import Foundation
import Storegate

struct MetricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics", abstract: "A tenant's daily figures, rolled up from its lifecycle events.", subcommands: [Rebuild.self])

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the tenant's daily figures again from its stored lifecycle events (in one transaction).")
        @OptionGroup var tenant: TenantOption

        func run() async throws {
            try await tenant.run { capabilities, tenant in try await capabilities.metrics.rebuild(tenant: tenant) }
            print("rebuilt the daily figures of \(tenant.tenant)")
        }
    }
}
