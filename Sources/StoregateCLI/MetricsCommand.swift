import ArgumentParser
import Foundation
import Storegate

struct MetricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics", abstract: "A tenant's daily figures, rolled up from its lifecycle events; the exchange rates they convert with.",
        subcommands: [Rebuild.self, LoadRates.self])

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the tenant's daily figures again from its stored lifecycle events (in one transaction).")
        @OptionGroup var tenant: TenantOption

        func run() async throws {
            try await tenant.run { capabilities, tenant in try await capabilities.metrics.rebuild(tenant: tenant) }
            print("rebuilt the daily figures of \(tenant.tenant)")
        }
    }

    struct LoadRates: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "load-rates",
            abstract: "Load exchange rates from a CSV file: the header date,currency,target,rate, then lines such as 2026-11-01,EUR,USD,1.0812.")
        @Argument(help: "The CSV file.") var file: String

        func run() async throws {
            let rates = try ExchangeRate.parse(csv: try String(contentsOfFile: file, encoding: .utf8))
            try await Runtime.run { capabilities in try await capabilities.metrics.load(rates: rates) }
            print("loaded \(rates.count) exchange rates")
        }
    }
}
