import Foundation
import Testing
import TestSupport

/// How a person names a hub to `journal sync init`: `--hub` and a path or URL, whatever the kind; the
/// options of earlier releases (`--folder`, `--postgres`) still work.
@Suite(.onTestThreads) struct HubNameTests {
    /// The command `sync init` prints for the next machine is run as printed, by a shell, on a folder
    /// whose name holds a space and a quote; the first machine named it by a `file:` URL.
    @Test func theCommandPrintedForTheNextMachineJoinsItAsPrinted() async throws {
        try await withTemporaryDirectory { folder in
            let hub = folder + "/my 'hub'"
            let a = JournalCLI(home: folder + "/a")
            var b = JournalCLI(home: folder + "/b")
            try a.run("add", "espresso", "--at", "9:00")
            let url = "file://" + hub.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
            let made = try a.run("sync", "init", "--hub", url, "--create")
            #expect(made.status == 0, "\(made.stderr)")
            #expect(made.stdout.contains("Made a new hub at \(hub)."), "\(made.stdout)")
            let printed = try #require(made.stdout.split(separator: "`").first { $0.hasPrefix("journal sync init --hub ") })
            #expect(printed == "journal sync init --hub '\(folder)/my '\\''hub'\\''' --key-file -", "\(printed)")
            try a.run("sync")

            b.environment["PATH"] = (JournalCLI.binary as NSString).deletingLastPathComponent + ":/usr/bin:/bin"
            let joined = try ProcessRunner.run("/bin/sh", ["-c", String(printed)], environment: b.environment, stdin: Data(try a.run("sync", "key").stdout.utf8))
            #expect(joined.status == 0, "\(joined.stderr)")
            #expect(joined.stdout.contains("Joined the hub at \(hub)."), "\(joined.stdout)")
            #expect(try b.run("sync").stdout == "Received 1 change from 1 device.\n")
        }
    }

    @Test(arguments: ["gopher://host/hub", "GS://bucket/hub", "file://nas/srv/hub", ""])
    func aHubOfNoKindThisJournalReachesIsRefusedAndNothingChanges(_ name: String) async throws {
        try await withTemporaryDirectory { folder in
            let a = JournalCLI(home: folder + "/a")
            try a.run("add", "espresso")
            let before = try a.fingerprint()
            let refused = try a.run("sync", "init", "--hub", name)
            #expect(refused.status == 64, "\(refused.stderr)")
            if name.hasPrefix("file:") {
                #expect(refused.stderr.contains("names a folder on another machine"), "\(refused.stderr)")
            } else if name.isEmpty {
                #expect(refused.stderr.contains("the hub's name is empty"), "\(refused.stderr)")
            } else {
                #expect(refused.stderr.contains("a hub of a kind this journal does not reach"), "\(refused.stderr)")
                #expect(refused.stderr.contains("file://, postgresql://, postgres://"), "\(refused.stderr)")
            }
            #expect(try a.fingerprint() == before)
            #expect(!FileManager.default.fileExists(atPath: folder + "/a/.config/journal/sync.key"))
            #expect(try a.run("sync", "status").stdout.contains("This journal is not joined to a hub yet."))
        }
    }

    @Test func oneHubIsGivenOnce() async throws {
        try await withTemporaryDirectory { folder in
            let a = JournalCLI(home: folder + "/a")
            let twice = try a.run("sync", "init", "--hub", folder + "/one", "--folder", folder + "/two")
            #expect(twice.status == 64 && twice.stderr.contains("give one hub, with --hub HUB alone"), "\(twice.stderr)")
            let none = try a.run("sync", "init")
            #expect(none.status == 64 && none.stderr.contains("give the hub with --hub HUB"), "\(none.stderr)")
        }
    }

    /// A folder made with `--folder` is joined with `--hub`, and a server named by `--postgres` in
    /// libpq's `key=value` words is the one `--hub` names by URL.
    @Test func theOptionsOfEarlierReleasesStillNameTheirHubs() async throws {
        try await withTemporaryDirectory { folder in
            try FileManager.default.createDirectory(atPath: folder + "/hub", withIntermediateDirectories: true)
            let a = JournalCLI(home: folder + "/a")
            let b = JournalCLI(home: folder + "/b")
            #expect(try a.run("sync", "init", "--folder", folder + "/hub").status == 0)
            try a.run("add", "espresso")
            try a.run("sync")
            let joined = try b.run(["sync", "init", "--hub", "file://" + folder + "/hub", "--key-file", "-"], stdin: try a.run("sync", "key").stdout)
            #expect(joined.status == 0, "\(joined.stderr)")
            #expect(try b.run("sync").stdout == "Received 1 change from 1 device.\n")

            let server = PostgresServer.shared
            let (database, role, _) = try server.makeDatabase(passwordFileIn: folder)
            let c = JournalCLI(home: folder + "/c")
            let d = JournalCLI(home: folder + "/d")
            let words = "host=localhost port=\(server.port) dbname=\(database) user=\(role) sslmode=verify-full "
                + "sslrootcert=\(server.authority) passfile=\(folder)/pgpass"
            let made = try c.run("sync", "init", "--postgres", words)
            #expect(made.status == 0, "\(made.stderr)")
            // Another machine names a server its own way (its role, its files): the command it is given
            // says the form, never this machine's role or password file.
            #expect(made.stdout.contains("`journal sync init --hub postgresql://USER@HOST/DATABASE --key-file -`"), "\(made.stdout)")
            let command = made.stdout.split(separator: "`").first { $0.hasPrefix("journal sync init") } ?? ""
            #expect(!command.contains("passfile") && !command.contains(role), "\(command)")
            try c.run("add", "tea")
            try c.run("sync")
            let url = server.uri(database: database, role: role) + "&passfile=\(folder)/pgpass"
            let joinedD = try d.run(["sync", "init", "--hub", url, "--key-file", "-"], stdin: try c.run("sync", "key").stdout)
            #expect(joinedD.status == 0, "\(joinedD.stderr)")
            #expect(try d.run("sync").stdout == "Received 1 change from 1 device.\n")
        }
    }

    @Test func sharedIsForAFolderHub() async throws {
        try await withTemporaryDirectory { folder in
            let a = JournalCLI(home: folder + "/a")
            let uri = try PostgresServer.shared.newHub(in: folder + "/server")
            let refused = try a.run("sync", "init", "--hub", uri, "--shared")
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(refused.stderr.contains("--shared makes a folder hub shared by the folder's group"), "\(refused.stderr)")
            #expect(try a.run("sync", "status").stdout.contains("This journal is not joined to a hub yet."))
        }
    }
}
