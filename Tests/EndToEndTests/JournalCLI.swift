import Foundation
import TestSupport

/// The built `journal` binary, run in a home folder of the test's own, as a user would run it.
struct JournalCLI {
    let home: String
    var environment: [String: String]

    static let binary = ProcessRunner.executable("journal")

    init(home: String, now: String? = "2026-11-21T15:30:00Z", timeZone: String = "UTC") {
        self.home = home
        // The tests' WebDAV logins, as a person's ~/.netrc would hold them, and their S3 key, as a
        // person's environment would.
        environment = ["HOME": home, "TZ": timeZone, "LC_ALL": "C.UTF-8", "NETRC": WebDAVServer.netrcPath].merging(S3Server.environment) { one, _ in one }
        if let now { environment["JOURNAL_NOW"] = now }
    }

    var databasePath: String { home + "/.local/share/journal/journal.db" }

    /// This machine's device id, from its journal.
    func deviceID() throws -> String {
        try run("sql", "select value from meta where key = 'device_id'", "--format", "csv").stdout
            .split(whereSeparator: \.isNewline).dropFirst().first.map(String.init)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    /// Writes `text` as this home's settings file, `~/.config/journal/config.toml`.
    func writeSettings(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: home + "/.config/journal", withIntermediateDirectories: true)
        try text.write(toFile: home + "/.config/journal/config.toml", atomically: true, encoding: .utf8)
    }

    @discardableResult
    func run(_ arguments: String..., stdin: String? = nil) throws -> ProcessResult {
        try run(arguments, stdin: stdin)
    }

    func run(_ arguments: [String], stdin: String? = nil) throws -> ProcessResult {
        try ProcessRunner.run(Self.binary, arguments, environment: environment, stdin: stdin.map { Data($0.utf8) })
    }

    /// Everything the journal holds, tombstones and bookkeeping included, to check that a refused
    /// command changed nothing.
    func fingerprint() throws -> String {
        try run("sql", "select * from drinks order by id; select * from meta order by key; select * from undo_log order by change_id, record_kind, record_key", "--format", "csv").stdout
    }

    /// Every command path the binary defines (["add"], ["sync", "init"], ...), from its own help dump.
    func commandPaths() throws -> [[String]] {
        let dump = try run("--experimental-dump-help")
        guard let root = (try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])?["command"] as? [String: Any]
        else { throw CLIFailure(result: dump) }
        func walk(_ command: [String: Any], _ path: [String]) -> [[String]] {
            let subcommands = command["subcommands"] as? [[String: Any]] ?? []
            return subcommands.flatMap { sub -> [[String]] in
                guard let name = sub["commandName"] as? String, name != "help" else { return [] }
                return [path + [name]] + walk(sub, path + [name])
            }
        }
        return walk(root, [])
    }

    func json(_ arguments: String...) throws -> Any {
        let result = try run(arguments)
        guard result.status == 0 else { throw CLIFailure(result: result) }
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: [.fragmentsAllowed])
    }
}

struct CLIFailure: Error, CustomStringConvertible {
    let result: ProcessResult
    var description: String { "exit \(result.status): \(result.stderr)" }
}

/// A hub and machines joined to it: the first machine makes the hub and its key, the others join
/// with that key. The hub is a folder, or a database of its own on the tests' PostgreSQL server.
struct JoinedMachines {
    /// The hub's folder, or its connection string.
    let hub: String
    let key: String
    let machines: [JournalCLI]
    let flavor: HubFlavor

    init(in folder: String, names: [String] = ["a", "b"], now: String? = "2026-11-21T15:30:00Z", on flavor: HubFlavor = .folder) throws {
        self.flavor = flavor
        hub = try flavor.newHub(in: folder)
        var machines: [JournalCLI] = []
        var key = ""
        for name in names {
            let machine = JournalCLI(home: folder + "/" + name, now: now)
            // Each machine joins with a key the first printed for it, as a person does: each printed key
            // carries an invitation of its own.
            let printed = machines.isEmpty ? "" : try machines[0].run("sync", "key").stdout
            let joined = machines.isEmpty
                ? try machine.run(["sync", "init"] + flavor.arguments(hub))
                : try machine.run(["sync", "init"] + flavor.arguments(hub) + ["--key-file", "-"], stdin: printed)
            guard joined.status == 0 else { throw CLIFailure(result: joined) }
            if machines.isEmpty { key = try machine.run("sync", "key").stdout }
            machines.append(machine)
        }
        self.key = key
        self.machines = machines
    }
}

/// A printed key without its invitation (`JK2-`, the hub's label and the key's 13 groups): what two
/// machines holding one key print alike, each with an invitation of its own.
func keyPart(_ printed: String) -> String {
    printed.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "-").prefix(15).joined(separator: "-")
}

/// The kinds of hub an end-to-end test runs against.
enum HubFlavor: String, CaseIterable, Sendable, CustomStringConvertible {
    case folder, postgres, apache, nginx, s3

    var description: String { rawValue }

    /// A new, empty hub's place: a folder, or a connection string to a database of its own (its role's
    /// password in a file the connection string names).
    func newHub(in folder: String) throws -> String {
        switch self {
        case .folder:
            try FileManager.default.createDirectory(atPath: folder + "/hub", withIntermediateDirectories: true)
            return folder + "/hub"
        case .postgres:
            return try PostgresServer.shared.newHub(in: folder)
        case .apache:
            return try WebDAVServer.shared(.apache).newFolder()
        case .nginx:
            return try WebDAVServer.shared(.nginx).newFolder()
        case .s3:
            return try S3Server.newHubURL()
        }
    }

    /// The database and role a PostgreSQL hub's connection string names.
    static func databaseAndRole(_ uri: String) -> (database: String, role: String) {
        let afterScheme = uri.dropFirst("postgresql://".count)
        let role = afterScheme.prefix(while: { $0 != "@" })
        let path = afterScheme.drop(while: { $0 != "/" }).dropFirst()
        return (String(path.prefix(while: { $0 != "?" })), String(role))
    }

    /// `sync init`'s arguments for `hub`: every kind is named by `--hub` (the options of earlier
    /// releases, `--folder` and `--postgres`, have tests of their own).
    func arguments(_ hub: String) -> [String] { ["--hub", hub] }
}

extension JoinedMachines {
    /// A machine that made a hub of its own in `folder/hub`: its key is another hub's key.
    static func makeKey(in folder: String) throws -> JournalCLI {
        let machine = JournalCLI(home: folder + "/home")
        try FileManager.default.createDirectory(atPath: folder + "/hub", withIntermediateDirectories: true)
        let made = try machine.run("sync", "init", "--folder", folder + "/hub")
        guard made.status == 0 else { throw CLIFailure(result: made) }
        return machine
    }
}

extension PostgresServer {
    /// A database of its own on this server, for a hub: its connection string, which names a password
    /// file in `folder` holding its role's password.
    func newHub(in folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try makeDatabase(passwordFileIn: folder).uri
    }
}
