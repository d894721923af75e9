import Foundation
import FolderHub
import JournalSync
import PostgresHub
import S3Hub
import Testing
import TestSupport

@testable import WebDAVHub

/// The kinds of hub every contract test runs against: a folder, a database of its own on the tests'
/// PostgreSQL server, a folder of its own on each of the tests' WebDAV servers (Apache over TLS,
/// nginx), and a bucket of its own on the tests' S3 server (moto).
enum HubFlavor: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case folder, postgres, apache, nginx, s3

    var testDescription: String { rawValue }

    /// The kind of hub this flavor makes.
    var kind: HubKind {
        switch self {
        case .folder: .folder
        case .postgres: .postgres
        case .apache, .nginx: .webdav
        case .s3: .s3
        }
    }

    /// The tests' WebDAV server of a WebDAV flavor.
    private var davServer: WebDAVServer { .shared(self == .apache ? .apache : .nginx) }

    /// The code a hub of this kind reports a segment's name taken by.
    var nameTakenCode: TransportCode {
        switch self {
        case .folder: .errno(EEXIST)
        case .postgres: .sqlState("23505")
        case .apache, .nginx: .httpStatus(405)
        case .s3: .httpStatus(412)
        }
    }

    init?(kind: HubKind) {
        guard let flavor = Self.allCases.first(where: { $0.kind == kind }) else { return nil }
        self = flavor
    }

    /// A new, empty place for a hub. A PostgreSQL place gets a database and role of its own, its
    /// password in a file beside the test's journals.
    func newPlace(in folder: String) throws -> any HubPlace { try newPlaceAndDatabase(in: folder).place }

    /// A new place as `newPlace` makes it, and where a test writes as someone with the right to could:
    /// for a PostgreSQL place the name of its database, for a WebDAV place its folder on the server's disk,
    /// for an S3 place its bucket and prefix ("BUCKET/journal").
    func newPlaceAndDatabase(in folder: String) throws -> (place: any HubPlace, database: String?) {
        switch self {
        case .folder:
            return (FolderPlace(folder: folder + "/hub"), nil)
        case .postgres:
            let server = PostgresServer.shared
            let (database, _, uri) = try server.makeDatabase(passwordFileIn: folder)
            return (try PostgresPlace(connectionString: uri), database)
        case .apache, .nginx:
            let server = davServer
            let url = try server.newFolder()
            return (try WebDAVPlace(url: url, loginFiles: [WebDAVServer.netrcPath]), server.onDisk(url))
        case .s3:
            let bucket = try S3Server.newBucket()
            return (try S3Place(url: "s3://\(bucket)/journal?endpoint=\(S3Server.serving(bucket).endpoint)", environment: { S3Server.environment[$0] }), bucket + "/journal")
        }
    }

    /// Puts `count` junk key epoch records where a hub of this kind keeps its records, as anyone who can
    /// write the folder, or insert into the table, could: 4 bytes each, named like records of epoch 2.
    func plantJunkEpochRecords(_ count: Int, folder: String, database: String?) throws {
        switch self {
        case .folder:
            let epochs = folder + "/hub/journal-hub-v1/epochs"
            try FileManager.default.createDirectory(atPath: epochs, withIntermediateDirectories: true)
            for index in 0..<count {
                try Data([1, 2, 3, 4]).write(to: URL(fileURLWithPath: epochs + "/2-" + String(format: "%032x", index + 1) + ".epoch"))
            }
        case .postgres:
            _ = try PostgresServer.shared.psql(
                """
                INSERT INTO journal_hub.epochs (number, id, bytes)
                SELECT 2, decode(lpad(to_hex(i), 32, '0'), 'hex'), '\\x01020304'::bytea FROM generate_series(1, \(count)) AS i
                """, database: database ?? "")
        case .apache, .nginx:
            let epochs = (database ?? "") + "/journal-hub-v1/epochs"
            try FileManager.default.createDirectory(atPath: epochs, withIntermediateDirectories: true)
            for index in 0..<count {
                try Data([1, 2, 3, 4]).write(to: URL(fileURLWithPath: epochs + "/2-" + String(format: "%032x", index + 1) + ".epoch"))
            }
            try davServer.makeFolder(epochs)
        case .s3:
            try plantInBucket(Data([1, 2, 3, 4]), at: (0..<count).map { "epochs/2-" + String(format: "%032x", $0 + 1) + ".epoch" }, database: database)
        }
    }

    /// Puts `count` junk cards where a hub of this kind keeps its cards, under made-up device ids that
    /// come before any real one in order, `size` bytes each.
    func plantJunkCards(_ count: Int, size: Int = 4, folder: String, database: String?) throws {
        switch self {
        case .folder:
            let cards = folder + "/hub/journal-hub-v1/cards"
            try FileManager.default.createDirectory(atPath: cards, withIntermediateDirectories: true)
            for index in 0..<count {
                try Data(repeating: 7, count: size).write(to: URL(fileURLWithPath: cards + "/" + Self.junkDevice(index) + ".card"))
            }
        case .postgres:
            _ = try PostgresServer.shared.psql(
                """
                INSERT INTO journal_hub.cards (device, bytes)
                SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, decode(repeat('07', \(size)), 'hex')
                FROM generate_series(0, \(count - 1)) AS i
                """, database: database ?? "")
        case .apache, .nginx:
            let cards = (database ?? "") + "/journal-hub-v1/cards"
            try FileManager.default.createDirectory(atPath: cards, withIntermediateDirectories: true)
            for index in 0..<count {
                try Data(repeating: 7, count: size).write(to: URL(fileURLWithPath: cards + "/" + Self.junkDevice(index) + ".card"))
            }
            try davServer.makeFolder(cards)
        case .s3:
            try plantInBucket(Data(repeating: 7, count: size), at: (0..<count).map { "cards/" + Self.junkDevice($0) + ".card" }, database: database)
        }
    }

    /// Puts `bytes` at each of `names` in the hub of an S3 place (`database` is its "BUCKET/PREFIX").
    private func plantInBucket(_ bytes: Data, at names: [String], database: String?) throws {
        let parts = (database ?? "").split(separator: "/", maxSplits: 1).map(String.init)
        try S3Server.serving(parts[0]).put(bytes, bucket: parts[0], keys: names.map { parts[1] + "/journal-hub-v1/" + $0 })
    }

    /// A made-up device id that sorts before any random one.
    static func junkDevice(_ index: Int) -> String { "00000000-0000-4000-8000-" + String(format: "%012x", index) }
}
