import ArgumentParser
import Foundation

@main
struct StoregateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storegate",
        abstract: "App Store server-side work for many app developers, over JSON-RPC.",
        discussion: """
            Configuration comes from the environment: STOREGATE_DATABASE_URL, STOREGATE_MASTER_KEY (or \
            STOREGATE_MASTER_KEY_FILE), STOREGATE_PREVIOUS_MASTER_KEYS, STOREGATE_PUBLIC_URL, STOREGATE_LOG_LEVEL, \
            STOREGATE_JOB_LEASE_SECONDS.
            """,
        subcommands: [
            ServeCommand.self, MigrateCommand.self, TenantCommand.self, AppCommand.self, APIKeyCommand.self, WebhookCommand.self, UserCommand.self,
            CustomerCommand.self, MetricsCommand.self, RatesCommand.self, ExportCommand.self,
            KeysCommand.self,
            JWSCommand.self,
            OfferCommand.self, SimulatorCommand.self,
            OpenRPCCommand.self, SchemaCommand.self,
        ]
    )

    /// Runs the command; bad usage exits with status 2, other failures with 1.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}
