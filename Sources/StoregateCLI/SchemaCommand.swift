import ArgumentParser
import StoregatePostgres

struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema", abstract: "Print the current control and tenant schema (deploy/schema.sql), after migrating the control schema.",
        discussion: "The tenant schema is made from its chain in a transaction that is rolled back: no tenant is needed and nothing is left.")

    func run() async throws {
        let text = try await Runtime.run(maximumConnections: 2) { _, postgres in
            _ = try await Migrator(client: postgres.client, logger: postgres.logger, concurrency: 1).migrateControl()
            return try await SchemaSnapshot.describe(client: postgres.client, logger: postgres.logger)
        }
        print(text, terminator: "")
    }
}
