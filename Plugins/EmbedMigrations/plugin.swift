import Foundation
import PackagePlugin

/// Makes the target's migrations (`Migrations/<Chain>/NN-name.sql`) into Swift at build time, so adding
/// one is adding its file, and the binary carries them (no resource bundle to ship beside it).
@main struct EmbedMigrations: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let migrations = target.sourceFiles(withSuffix: "sql").map(\.url).sorted { $0.path < $1.path }
        let output = context.pluginWorkDirectoryURL.appending(path: "Migrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(migrations.count) migrations of \(target.name)",
                executable: try context.tool(named: "MigrationEmbedder").url,
                arguments: [output.path] + migrations.map(\.path),
                inputFiles: migrations,
                outputFiles: [output]
            )
        ]
    }
}
