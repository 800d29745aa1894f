import AppStoreServer
import ArgumentParser
import Foundation
import Storegate

/// `storegate app transactions …`: an app's transactions at Apple, as the `transactions.*` methods reach them.
struct TransactionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transactions", abstract: "An app's transactions at Apple.", subcommands: [Finish.self])

    struct Finish: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Tell Apple a transaction is finished: its content was delivered (Finish Transaction; audited).")
        @OptionGroup var tenant: TenantOption
        @Option(help: "The app's bundle ID.") var bundleId: String
        @Option(help: "The transaction's ID.") var transactionId: String

        func run() async throws {
            let (bundleId, transactionId) = (bundleId, transactionId)
            let environment = try await tenant.run { capabilities, tenant in
                try await capabilities.transactions.finish(
                    tenant: tenant, bundleId: bundleId, transactionId: transactionId, actor: .cli)
            }
            print("transaction \(transactionId) finished at Apple (\(environment.rawValue))")
        }
    }
}
