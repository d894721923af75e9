import TestSupport

@testable import PostgresHub

/// A connection to a new database of the tests' server, as a hub opens one: for tests of what a call
/// on it does.
func openTestLink(in folder: String) async throws -> PostgresLink {
    let uri = try PostgresServer.shared.makeDatabase(passwordFileIn: folder).uri
    return try await PostgresConnector(location: try PostgresLocation.parse(uri)).connect()
}
