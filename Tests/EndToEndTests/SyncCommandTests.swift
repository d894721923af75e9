import Foundation
import Testing
import TestSupport

/// Two machines (two home folders), one hub folder, and the `journal sync` commands between them.
@Suite(.onTestThreads) struct SyncCommandTests {
    @Test func everyAddEditAndDeleteReachesTheOtherMachine() async throws {
        try await withTemporaryDirectory { folder in
            let hub = folder + "/hub"
            try FileManager.default.createDirectory(atPath: hub, withIntermediateDirectories: true)
            let a = JournalCLI(home: folder + "/a")
            let b = JournalCLI(home: folder + "/b")
            try a.run("add", "espresso", "--at", "9:00", "--note", "private note")
            let joined = try a.run("sync", "init", "--folder", hub)
            #expect(joined.status == 0, "\(joined.stderr)")
            #expect(joined.stdout.contains("Made a new hub at \(hub)"))
            let keyFile = folder + "/a/.config/journal/sync.key"
            #expect(try permissions(keyFile) == 0o600)
            let key = try a.run("sync", "key").stdout
            #expect(key.hasPrefix("JK2-") && key.count == 109, "\(key)")

            #expect(try a.run("sync").stdout == "Published 1 change in 1 segment.\n")
            let joinedB = try b.run(["sync", "init", "--folder", hub, "--key-file", "-"], stdin: key)
            #expect(joinedB.status == 0, "\(joinedB.stderr)")
            #expect(try b.run("sync").stdout == "Received 1 change from 1 device.\n")
            let onB = try #require(try b.json("list", "--json") as? [[String: Any]])
            #expect(onB.count == 1)
            #expect(onB[0]["note"] as? String == "private note")
            let id = try #require(onB[0]["id"] as? String)

            try b.run("edit", String(id.prefix(8)), "--mg", "80")
            try b.run("add", "tea", "--at", "10:00")
            let syncB = try #require(try b.json("sync", "--json") as? [String: Any])
            #expect(syncB["published"] as? Double == 2)
            try a.run("sync")
            try a.run("rm", String(id.prefix(8)))
            try a.run("sync")
            try b.run("sync")
            for machine in [a, b] {
                let drinks = try #require(try machine.json("list", "--json") as? [[String: Any]])
                #expect(drinks.map { $0["drink"] as? String } == ["black-tea"])
            }
            #expect(try a.run("sync").stdout == "Nothing to sync: this journal and the hub agree.\n")

            let status = try #require(try a.json("sync", "status", "--json") as? [String: Any])
            #expect(status["hub"] as? String == hub)
            #expect(status["pending_changes"] as? Double == 0)
            let last = try #require(status["last_sync"] as? [String: Any])
            #expect(last["result"] as? String == "ok" && last["exit_status"] as? Double == 0 && last["failure"] is NSNull)
            #expect((last["message"] as? String)?.hasPrefix("Nothing to sync") == true)
            let devices = try #require(status["devices"] as? [[String: Any]])
            #expect(devices.count == 1)
            #expect(devices[0]["applied_position"] as? Double == devices[0]["hub_position"] as? Double)

            // The key never appears in what the commands print, except from `sync key`.
            let trimmedKey = key.trimmingCharacters(in: .whitespacesAndNewlines)
            for command in [["sync"], ["sync", "status"], ["sync", "status", "--json"], ["list"]] {
                let result = try a.run(command)
                #expect(!result.stdout.contains(trimmedKey) && !result.stderr.contains(trimmedKey))
            }
        }
    }

    /// The hub's label as `sync status --json` gives it.
    func hubLabel(of machine: JournalCLI) throws -> String {
        let status = try JSONSerialization.jsonObject(with: Data(try machine.run("sync", "status", "--json").stdout.utf8)) as? [String: Any]
        return status?["hub_label"] as? String ?? "(none)"
    }

    /// The key as a person copies it: its hub's label first, the same label `sync status` shows, and
    /// read back by `sync init` in either form.
    @Test func theKeyIsPrintedWithItsHubsLabelAndJoinsInEitherForm() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a"])
            let (a, hub) = (joined.machines[0], joined.hub)
            try a.run("add", "espresso")
            try a.run("sync")
            let key = try a.run("sync", "key").stdout
            let label = try hubLabel(of: a)
            #expect(key.hasPrefix("JK2-\(label)-") && key.utf8.count == 109, "\(key)")
            #expect(try a.run("sync", "status").stdout.contains("(hub \(label): its key begins JK2-\(label)-)"))
            let b = JournalCLI(home: folder + "/b"), c = JournalCLI(home: folder + "/c")
            // Typed by hand: lower case, spaces for dashes.
            #expect(try b.run(["sync", "init", "--folder", hub, "--key-file", "-"], stdin: key.lowercased().replacingOccurrences(of: "-", with: " ")).status == 0)
            let hex = try String(contentsOfFile: folder + "/a/.config/journal/sync.key", encoding: .utf8)
            #expect(hex.utf8.count == 65)
            #expect(try c.run(["sync", "init", "--folder", hub, "--key-file", "-"], stdin: hex).status == 0)
            for machine in [b, c] {
                #expect(try machine.run("sync").status == 0)
                #expect(keyPart(try machine.run("sync", "key").stdout) == keyPart(key))
                #expect(try machine.run("sql", "select count(*) from drinks").stdout == "count(*)\n1\n")
            }
        }
    }

    @Test func joiningAnExistingHubWithoutItsKeyOrWithAnotherKeyIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a"])
            let (a, hub) = (joined.machines[0], joined.hub)
            try a.run("add", "espresso")
            try a.run("sync")
            // Printing a key writes the card that names its invitation: before the hub is looked at.
            let key = try a.run("sync", "key").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let before = snapshotFiles(hub)
            let b = JournalCLI(home: folder + "/b")

            let noKey = try b.run("sync", "init", "--folder", hub)
            #expect(noKey.status == 64)
            #expect(noKey.stderr.contains("joining it needs its key"))

            let other = JournalCLI(home: folder + "/c")
            try FileManager.default.createDirectory(atPath: folder + "/other-hub", withIntermediateDirectories: true)
            try other.run("sync", "init", "--folder", folder + "/other-hub")
            let wrongKey = try other.run("sync", "key").stdout
            let wrong = try b.run(["sync", "init", "--folder", hub, "--key-file", "-"], stdin: wrongKey)
            #expect(wrong.status == 65)
            let (otherLabel, label) = (try hubLabel(of: other), try hubLabel(of: a))
            #expect(otherLabel != label)
            #expect(wrong.stderr.contains("printed for hub \(otherLabel), and \(hub) is hub \(label)"), "\(wrong.stderr)")
            #expect(!wrong.stderr.contains(wrongKey.trimmingCharacters(in: .whitespacesAndNewlines)))
            // The older form carries no label: the same refusal, said without one.
            let otherHex = try String(contentsOfFile: folder + "/c/.config/journal/sync.key", encoding: .utf8)
            let wrongHex = try b.run(["sync", "init", "--folder", hub, "--key-file", "-"], stdin: otherHex)
            #expect(wrongHex.status == 65 && wrongHex.stderr.contains("does not open \(hub)"), "\(wrongHex.stderr)")

            // One character mistyped, one left out: said as such, the key never repeated.
            var characters = Array(key)
            characters[20] = characters[20] == "7" ? "8" : "7"
            let mistyped = try b.run(["sync", "init", "--folder", hub, "--key-file", "-"], stdin: String(characters) + "\n")
            #expect(mistyped.status == 65)
            #expect(mistyped.stderr.contains("a character is mistyped"), "\(mistyped.stderr)")
            let short = try b.run(["sync", "init", "--folder", hub, "--key-file", "-"], stdin: String(key.dropLast()) + "\n")
            #expect(short.status == 65)
            #expect(short.stderr.contains("one is missing or extra"), "\(short.stderr)")
            for refusal in [mistyped, short] { #expect(!refusal.stderr.contains(key.dropFirst(4).prefix(9))) }

            let malformed = try b.run(["sync", "init", "--folder", hub, "--key-file", "-"], stdin: "hunter2\n")
            #expect(malformed.status == 65)
            #expect(malformed.stderr.contains("`JK2-` and 21 groups"), "\(malformed.stderr)")
            #expect(!malformed.stderr.contains("hunter2"))

            #expect(snapshotFiles(hub) == before)
            #expect(!FileManager.default.fileExists(atPath: folder + "/b/.config/journal/sync.key"))
            let notJoined = try b.run("sync")
            #expect(notJoined.status == 1)
            #expect(notJoined.stderr.contains("not joined to a hub"))
            // sync status answers it, as git status does: the fix, and exit 0.
            let status = try b.run("sync", "status")
            #expect(status.status == 0 && status.stderr.isEmpty, "\(status.stderr)")
            #expect(status.stdout.hasPrefix("This journal is not joined to a hub yet. Join one with: journal sync init --hub HUB"), "\(status.stdout)")
            // Joined, with no daemon: how to start one on this machine (this one runs no systemd, or does).
            try a.run("sync")
            let daemon = try a.run("sync", "status").stdout
            let advice = FileManager.default.fileExists(atPath: "/run/systemd/system") ? "systemctl --user enable --now journal-sync" : "run journal-syncd &"
            #expect(daemon.contains("Daemon       not running") && daemon.contains(advice), "\(daemon)")
        }
    }

    @Test func aCopiedDatabaseIsRefusedWithTheFix() async throws {
        try await withTemporaryDirectory { folder in
            let a = try JoinedMachines(in: folder, names: ["a"]).machines[0]
            try a.run("add", "espresso")
            try a.run("sync")
            // The whole home folder copied to a new machine: same database, same device id.
            try FileManager.default.copyItem(atPath: folder + "/a", toPath: folder + "/copy")
            let copy = JournalCLI(home: folder + "/copy")
            try copy.run("add", "tea")
            let refused = try copy.run("sync")
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("is not the file this journal was made in"))
            #expect(refused.stderr.contains("journal sync new-device"))
            let fixed = try copy.run("sync", "new-device")
            #expect(fixed.status == 0, "\(fixed.stderr)")
            try a.run("add", "cola")
            #expect(try copy.run("sync").status == 0)
            #expect(try a.run("sync").status == 0)
            try copy.run("sync")
            let onA = try #require(try a.json("list", "--json") as? [[String: Any]])
            let onCopy = try #require(try copy.json("list", "--json") as? [[String: Any]])
            #expect(Set(onA.compactMap { $0["id"] as? String }) == Set(onCopy.compactMap { $0["id"] as? String }))
            #expect(onA.count == 3)
        }
    }

    @Test func aCorruptSegmentIsNamedAndTheRestStillSyncs() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a", "b", "c"])
            let (a, b, c, hub) = (joined.machines[0], joined.machines[1], joined.machines[2], joined.hub)
            try a.run("add", "espresso")
            try a.run("sync")
            try b.run("add", "tea")
            try b.run("sync")
            let devices = try FileManager.default.contentsOfDirectory(atPath: hub + "/journal-hub-v1/devices")
            let aDevice = try #require(try a.json("sync", "status", "--json") as? [String: Any])["device"] as? String
            let aFolder = hub + "/journal-hub-v1/devices/" + (aDevice ?? "")
            #expect(devices.contains(aDevice ?? ""))
            let segment = try #require(try FileManager.default.contentsOfDirectory(atPath: aFolder).first)
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: aFolder + "/" + segment)))
            bytes[bytes.count / 2] ^= 1
            try Data(bytes).write(to: URL(fileURLWithPath: aFolder + "/" + segment))

            let result = try c.run("sync")
            #expect(result.status == 65)
            #expect(result.stderr.contains("segment \(segment)"))
            #expect(result.stderr.contains("does not authenticate"))
            #expect(result.stdout.contains("Received 1 change from 1 device."))
            let drinks = try #require(try c.json("list", "--json") as? [[String: Any]])
            #expect(drinks.map { $0["drink"] as? String } == ["black-tea"])
        }
    }

    @Test func aHubFolderThatIsGoneIsAClearFailure() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a"])
            let (a, hub) = (joined.machines[0], joined.hub)
            try a.run("add", "espresso")
            try FileManager.default.moveItem(atPath: hub, toPath: folder + "/unmounted")
            let result = try a.run("sync")
            #expect(result.status == 1)
            #expect(result.stderr.contains("cannot reach the hub"))
            let status = try a.run("sync", "status")
            #expect(status.status == 0)
            #expect(status.stdout.contains("Waiting      1 change to publish"))
            try FileManager.default.moveItem(atPath: folder + "/unmounted", toPath: hub)
            #expect(try a.run("sync").stdout == "Published 1 change in 1 segment.\n")
            // A folder that is not there yet is made, as the README says init does (0700); under a
            // missing one too, with --create.
            let fresh = JournalCLI(home: folder + "/newcomer")
            let made = try fresh.run("sync", "init", "--folder", folder + "/new/deeper", "--create")
            #expect(made.status == 0, "\(made.stderr)")
            #expect(try permissions(folder + "/new/deeper") == 0o700)
            // A hub a sync tool has only half copied yet is neither joined nor made anew.
            let half = folder + "/half"
            try FileManager.default.createDirectory(atPath: half + "/journal-hub-v1/devices", withIntermediateDirectories: true)
            let early = try JournalCLI(home: folder + "/fresh").run("sync", "init", "--folder", half)
            #expect(early.status == 65)
            #expect(early.stderr.contains("hub.json is not"))
            #expect(!FileManager.default.fileExists(atPath: half + "/journal-hub-v1/hub.json"))
        }
    }
}

extension SyncCommandTests {
    @Test func aCustomDrinkReachesTheOtherMachine() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b, hub) = (joined.machines[0], joined.machines[1], joined.hub)
            try a.run("add", "espresso")
            try a.run("sync")
            // Every segment is in the signed format, whatever it holds (journals before it read none).
            let device = try #require(try a.json("sync", "status", "--json") as? [String: Any])["device"] as? String ?? ""
            let segments = try FileManager.default.contentsOfDirectory(atPath: hub + "/journal-hub-v1/devices/" + device).sorted()
            let first = try Data(contentsOf: URL(fileURLWithPath: hub + "/journal-hub-v1/devices/\(device)/" + segments[0]))
            #expect(first[4] == 3)

            #expect(try a.run("drinks", "add", "guayusa", "--mg", "85").status == 0)
            try a.run("sync")
            try b.run("sync")
            let added = try b.run("add", "guayusa", "--note", "on b")
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("guayusa 85 mg"))
            let kinds = try #require(try b.json("drinks", "--json") as? [[String: Any]])
            #expect(kinds.contains { $0["name"] as? String == "guayusa" && $0["custom"] as? Bool == true })
            let newest = try FileManager.default.contentsOfDirectory(atPath: hub + "/journal-hub-v1/devices/" + device).sorted().last ?? ""
            let second = try Data(contentsOf: URL(fileURLWithPath: hub + "/journal-hub-v1/devices/\(device)/" + newest))
            #expect(second[4] == 3)

            try a.run("drinks", "rm", "guayusa")
            try a.run("sync")
            try b.run("sync")
            #expect(try b.run("add", "guayusa").status == 65)
            // What was logged with it stays, on both machines.
            try b.run("sync")
            try a.run("sync")
            let onA = try #require(try a.json("list", "--json") as? [[String: Any]])
            #expect(onA.contains { $0["drink"] as? String == "guayusa" && $0["note"] as? String == "on b" })
        }
    }
}

func snapshotFiles(_ folder: String) -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
    for case let path as String in walker {
        if let data = FileManager.default.contents(atPath: folder + "/" + path) { files[path] = data }
    }
    return files
}

/// A new folder hub under a folder that does not exist is more often a typo than a wish.
@Suite(.onTestThreads) struct SyncInitFolderTests {
    @Test func aHubUnderAMissingFolderIsMadeOnlyWhenAskedFor() async throws {
        try await withTemporaryDirectory { folder in
            let journal = JournalCLI(home: folder + "/home")
            let hub = folder + "/Sycn/journal"
            let refused = try journal.run("sync", "init", "--folder", hub)
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(refused.stderr.contains("\(folder)/Sycn does not exist, so no hub was made in \(hub): check the path for a typo, or give --create"),
                "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/Sycn"))
            // On a terminal, it asks.
            let asked = try TerminalSession(
                [JournalCLI.binary, "sync", "init", "--folder", hub], environment: journal.environment, screenPath: folder + "/screen.txt")
            #expect(try await asked.waitUntilShown("[y/N] "), "\(asked.shown)")
            asked.type("n")
            #expect(try await asked.exitStatus() == 64)
            #expect(!FileManager.default.fileExists(atPath: folder + "/Sycn"))
            let made = try journal.run("sync", "init", "--folder", hub, "--create")
            #expect(made.status == 0 && made.stdout.hasPrefix("Made a new hub at \(hub)."), "\(made.stderr)")
        }
    }
}
