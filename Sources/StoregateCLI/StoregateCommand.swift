import ArgumentParser

@main
struct StoregateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storegate",
        abstract: "App Store server-side work for many app developers, over JSON-RPC.",
        discussion: """
            Configuration comes from the environment: STOREGATE_DATABASE_URL, STOREGATE_MASTER_KEY (or \
            STOREGATE_MASTER_KEY_FILE), STOREGATE_PREVIOUS_MASTER_KEYS, STOREGATE_PUBLIC_URL, STOREGATE_LOG_LEVEL.
            """,
        subcommands: [
            ServeCommand.self, MigrateCommand.self, TenantCommand.self, AppCommand.self, APIKeyCommand.self, KeysCommand.self, OpenRPCCommand.self,
        ]
    )
}
