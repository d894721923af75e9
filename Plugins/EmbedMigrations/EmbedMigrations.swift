import Foundation
import PackagePlugin

/// Embeds every `.sql` file of a target's migrations folder into it, so an installed binary carries its
/// schema and adding a migration is adding a file: `Migrations/` for the journal's SQLite file,
/// `Migrations/postgres/` for a PostgreSQL hub's schema on its server.
@main
struct EmbedMigrations: BuildToolPlugin {
    static let folders = ["JournalKit": "Migrations", "PostgresHub": "Migrations/postgres"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let name = Self.folders[target.name] else { return [] }
        let folder = context.package.directoryURL.appending(path: name)
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) migrations",
                executable: try context.tool(named: "MigrationEmbedder").url,
                arguments: [output.path, target.name] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}
