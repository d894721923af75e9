import Foundation
import JournalSync
import PostgresHub
import Testing
import TestSupport

/// The kinds of hub every contract test runs against: a folder, and a database of its own on the
/// tests' PostgreSQL server.
enum HubFlavor: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case folder, postgres

    var testDescription: String { rawValue }

    /// A new, empty place for a hub. A PostgreSQL place gets a database and role of its own, its
    /// password in a file beside the test's journals.
    func newPlace(in folder: String) throws -> any HubPlace {
        switch self {
        case .folder:
            return FolderPlace(folder: folder + "/hub")
        case .postgres:
            let server = PostgresServer.shared
            let (database, role) = try server.makeDatabase()
            let passwords = folder + "/pgpass"
            FileManager.default.createFile(atPath: passwords, contents: Data(server.passwordLine(role: role).utf8), attributes: [.posixPermissions: 0o600])
            return try PostgresPlace(connectionString: server.uri(database: database, role: role) + "&passfile=" + passwords)
        }
    }
}
