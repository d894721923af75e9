import CommandLineSupport
import FolderHubWords
import PostgresHubWords
import S3HubWords
import WebDAVHubWords

/// The registration of every kind of hub's words on the command line, in the order help lists them;
/// `KnownHubs` registers their drivers.
public enum KnownHubWords {
    public static let all: [any HubKindWords.Type] = [FolderHubWords.self, PostgresHubWords.self, WebDAVHubWords.self, S3HubWords.self]

    /// "a folder, a PostgreSQL server, a WebDAV server or an S3 bucket".
    public static var places: String {
        let places = all.map { $0.place }
        guard let last = places.last, places.count > 1 else { return places.first ?? "" }
        return places.dropLast().joined(separator: ", ") + " or " + last
    }

    /// Every kind's own subcommands of `journal sync`.
    public static var subcommands: [any HubKindSubcommand.Type] { all.flatMap { $0.subcommands } }
}
