import ArgumentParser
import Foundation
import Storegate

struct MetricsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics", abstract: "A tenant's figures, rolled up from its lifecycle events.", subcommands: [Rebuild.self])

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the tenant's daily figures and monthly cohorts again from its stored lifecycle events (in one transaction).")
        @OptionGroup var tenant: TenantOption

        func run() async throws {
            try await tenant.run { capabilities, tenant in try await capabilities.metrics.rebuild(tenant: tenant) }
            print("rebuilt the daily figures and cohorts of \(tenant.tenant)")
        }
    }
}

struct RatesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rates", abstract: "The exchange rates metrics convert money with (`convertTo`).", subcommands: [Load.self])

    struct Load: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Load exchange rates from a CSV file: the header date,currency,target,rate, then lines such as 2026-11-01,EUR,USD,1.0812.",
            discussion: "A rate loaded again for the same date, currency and target replaces the one before.")
        @Argument(help: "The CSV file.") var file: String

        func run() async throws {
            let rates = try ExchangeRate.parse(csv: try String(contentsOfFile: file, encoding: .utf8))
            try await Runtime.run { capabilities in try await capabilities.metrics.load(rates: rates) }
            print("loaded \(rates.count) exchange rates")
        }
    }
}
