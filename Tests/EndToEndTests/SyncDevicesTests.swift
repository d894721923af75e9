import Foundation
import Testing
import TestSupport

/// `journal sync devices`, `journal sync rename` and the names in `journal sync status`, on both kinds
/// of hub, as a person runs them.
@Suite(.onTestThreads) struct SyncDevicesTests {
    /// Machines made from one image share a host name: each device's first card takes it only while no
    /// other device goes by it, and a number after it otherwise, so that no two are told apart by id alone.
    @Test(arguments: HubFlavor.allCases)
    func machinesOfOneHostNameGetNamesOfTheirOwn(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a", "b", "c"], on: flavor)
            for machine in joined.machines + joined.machines { #expect(try machine.run("sync").status == 0) }
            let json = try #require(try joined.machines[0].json("sync", "devices", "--json") as? [String: Any])
            let names = try #require(json["devices"] as? [[String: Any]]).compactMap { $0["name"] as? String }
            var buffer = [CChar](repeating: 0, count: 256)
            #expect(gethostname(&buffer, 255) == 0)
            let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            #expect(Set(names) == [host, host + " 2", host + " 3"], "\(names)")
        }
    }

    /// On a terminal, revoke names the device it found and acts only on a yes; a script gives --yes or
    /// has no terminal.
    @Test func revokeAsksOnATerminal() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b) = (joined.machines[0], joined.machines[1])
            try b.run("sync", "rename", "old laptop")
            #expect(try a.run("sync").status == 0)
            let id = try #require((try b.json("sync", "status", "--json") as? [String: Any])?["device"] as? String)
            func revoke(answer: String, screen: String) async throws -> (status: Int32?, shown: String) {
                let terminal = try TerminalSession(
                    [JournalCLI.binary, "sync", "revoke", String(id.prefix(8))], environment: a.environment, screenPath: folder + "/" + screen)
                let question = "Revoke old laptop (\(id.prefix(8)))? It will read nothing published from now on"
                #expect(try await terminal.waitUntilShown("[y/N] "), "\(terminal.shown)")
                #expect(terminal.shown.contains(question), "\(terminal.shown)")
                terminal.type(answer)
                return (try await terminal.exitStatus(), terminal.shown)
            }
            let declined = try await revoke(answer: "n", screen: "no.txt")
            #expect(declined.status == 1 && declined.shown.contains("nothing was revoked: old laptop stays a member"), "\(declined.shown)")
            let members = try #require(try a.json("sync", "devices", "--json") as? [String: Any])["devices"] as? [[String: Any]]
            #expect(members?.allSatisfy { $0["revoked_at"] is NSNull } == true, "\(String(describing: members))")
            let accepted = try await revoke(answer: "y", screen: "yes.txt")
            #expect(accepted.status == 0 && accepted.shown.contains("old laptop was revoked"), "\(accepted.shown)")
        }
    }

    @Test(arguments: HubFlavor.allCases)
    func devicesAreListedByNameWithThisOneMarkedAndARenameReachesTheOthers(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, on: flavor)
            let (a, b) = (joined.machines[0], joined.machines[1])
            try a.run("add", "espresso")
            let renamed = try b.run("sync", "rename", "work laptop")
            #expect(renamed.status == 0, "\(renamed.stderr)")
            #expect(renamed.stdout == "This device is now called work laptop on every device of the hub.\n")
            #expect(try a.run("sync").status == 0)
            #expect(try a.run("sync", "rename", "home desk").status == 0)

            let listed = try a.run("sync", "devices")
            #expect(listed.status == 0, "\(listed.stderr)")
            let lines = listed.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("  NAME") == true, "\(listed.stdout)")
            #expect(lines.contains { $0.hasPrefix("* home desk") && $0.contains("just now") }, "\(listed.stdout)")
            #expect(lines.contains { $0.hasPrefix("  work laptop") && $0.contains("never") }, "\(listed.stdout)")

            let json = try #require(try a.json("sync", "devices", "--json") as? [String: Any])
            let devices = try #require(json["devices"] as? [[String: Any]])
            #expect(devices.map { $0["name"] as? String } == ["home desk", "work laptop"])
            #expect(devices.map { $0["this_device"] as? Bool } == [true, false])
            #expect(devices.allSatisfy { $0["epoch"] as? Double == 0 && $0["card_problem"] is NSNull })

            // B learns A's name at its next sync; the name is shown in its status too.
            try b.run("sync")
            let status = try b.run("sync", "status")
            #expect(status.stdout.contains("home desk"), "\(status.stdout)")
            let statusJSON = try #require(try b.json("sync", "status", "--json") as? [String: Any])
            let others = try #require(statusJSON["devices"] as? [[String: Any]])
            #expect(others.map { $0["name"] as? String } == ["home desk"])
        }
    }

    @Test func aNameThatCannotBeOrIsTakenIsRefusedAndNothingChanges() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b) = (joined.machines[0], joined.machines[1])
            #expect(try b.run("sync", "rename", "desk").status == 0)
            try a.run("sync")
            let before = try snapshotFiles(joined.hub)
            for (name, words) in [
                ("", "is empty"), ("a\u{1B}]0;pwned\u{7}", "acts on a terminal"), ("evil\u{202E}txt.exe", "invisible"),
                (String(repeating: "x", count: 41), "41 characters"), ("DESK", "already called"),
            ] {
                let refused = try a.run("sync", "rename", name)
                #expect(refused.status == 64, "\(name): \(refused.stderr)")
                #expect(refused.stderr.contains(words), "\(name): \(refused.stderr)")
                #expect(!refused.stderr.contains("\u{1B}") && !refused.stderr.contains("\u{202E}"))
            }
            #expect(try snapshotFiles(joined.hub) == before)
        }
    }

    /// A device that has not synced for more than a day is named as silent, with for how long.
    @Test func aDeviceSilentForDaysIsSaidSo() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, now: "2026-11-18T09:00:00Z")
            let (a, b) = (joined.machines[0], joined.machines[1])
            try b.run("sync")
            try b.run("sync", "rename", "old laptop")
            var later = a
            later.environment["JOURNAL_NOW"] = "2026-11-21T15:30:00Z"
            try later.run("sync")
            let status = try later.run("sync", "status")
            #expect(status.stdout.contains("Silent       old laptop has not synced for 3 days"), "\(status.stdout)")
            #expect(status.stdout.contains("3 days ago"), "\(status.stdout)")
        }
    }
}
