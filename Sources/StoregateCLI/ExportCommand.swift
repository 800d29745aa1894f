import ArgumentParser
import Foundation
import Storegate

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a tenant's transactions, events or subscriptions over a date range as CSV or newline-delimited JSON (to standard output).",
        discussion: "The columns are docs/API.md's (\"Exports\"); the same pages as the RPC's exports.read, every one in turn.")
    @OptionGroup var tenant: TenantOption
    @Option(help: "transactions, events or subscriptions.") var what: String
    @Option(help: "From this instant (ISO 8601, or a date: 2026-01-01), included.") var from: String
    @Option(help: "To this instant (ISO 8601, or a date), excluded.") var to: String
    @Option(help: "csv (the default) or ndjson.") var format = "csv"

    func run() async throws {
        guard let kind = ExportKind(rawValue: what) else { throw ValidationError("--what must be transactions, events or subscriptions") }
        guard let format = ExportFormat(rawValue: format) else { throw ValidationError("--format must be csv or ndjson") }
        let (start, end) = (try Self.instant(from, option: "--from"), try Self.instant(to, option: "--to"))
        try await tenant.run { capabilities, tenant in
            try await capabilities.exports.export(tenant: tenant, what: kind, from: start, to: end, format: format) { text in
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        }
    }

    static func instant(_ text: String, option: String) throws -> Date {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let day = try? Date(text + "T00:00:00Z", strategy: .iso8601) { return day }
        throw ValidationError("\(option) must be an ISO 8601 instant or a date (2026-01-01)")
    }
}
