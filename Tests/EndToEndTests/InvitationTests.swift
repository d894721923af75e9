import Foundation
import Testing
import TestSupport

/// Invitations end (in 7 days, at their first use, at a new key, when withdrawn), are listed, and
/// find their way however many were printed; members are members from their join; a device left out
/// on purpose, or revoked, is told so plainly.
@Suite(.onTestThreads) struct InvitationTests {
    /// What `sync devices --json` says of each device's standing, by name.
    private func standings(_ machine: JournalCLI) throws -> [String: String] {
        let devices = try #require((try machine.json("sync", "devices", "--json") as? [String: Any])?["devices"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: devices.map { ($0["name"] as? String ?? "", $0["standing"] as? String ?? "") })
    }

    private func named(_ machine: JournalCLI, _ name: String) throws {
        let renamed = try machine.run("sync", "rename", name)
        guard renamed.status == 0 else { throw CLIFailure(result: renamed) }
    }

    /// The maker and the machine that joins with its key are members in each other's eyes from the
    /// join: no "by key", no warning, though neither synced again.
    @Test func theHubsMakerAndItsJoinerAreMembersFromTheStart() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b) = (joined.machines[0], joined.machines[1])
            #expect(try b.run("sync").status == 0)
            for machine in [a, b] {
                let devices = try machine.run("sync", "devices").stdout
                #expect(!devices.contains("by key"), "\(machine.home): \(devices)")
                #expect(Set(try standings(machine).values) == ["vouched"], "\(machine.home): \(devices)")
            }
        }
    }

    @Test func invitationsEndAndAreListedAndWithdrawn() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b) = (joined.machines[0], joined.machines[1])
            try named(a, "desk")
            // b joins with the key a printed for it, and a sees it: that invitation is used. The one
            // printed with the hub's key for the test is withdrawn.
            for machine in [b, a] { #expect(try machine.run("sync").status == 0) }
            let unused = try #require((try a.json("sync", "invitations", "--json") as? [[String: Any]])?.first?["id"] as? String)
            #expect(try a.run("sync", "invitations", "--withdraw", "all").stdout == "Withdrew invitation \(unused).\n")
            // Printed 400 days before it is used.
            var long = a
            long.environment["JOURNAL_NOW"] = "2025-10-17T15:30:00Z"
            let old = try long.run("sync", "key").stdout
            let listed = try #require(try a.json("sync", "invitations", "--json") as? [[String: Any]])
            #expect(listed.count == 0, "an invitation 400 days old is not open: \(listed)")
            let stale = JournalCLI(home: folder + "/stale")
            #expect(try stale.run(["sync", "init", "--hub", joined.hub, "--key-file", "-"], stdin: old).status == 0)
            #expect(try stale.run("sync").status == 0)
            #expect(try a.run("sync").status == 0)
            let staleName = try stale.deviceName()
            #expect(try standings(a)[staleName] == "by-key")

            // Listed while open, then withdrawn: the machine that joins with it is not vouched for.
            let printed = try a.run("sync", "key", "--expires", "2d").stdout
            let open = try #require(try a.json("sync", "invitations", "--json") as? [[String: Any]])
            #expect(open.count == 1 && (open[0]["expires_at"] as? String)?.hasPrefix("2026-11-23") == true, "\(open)")
            let id = try #require(open[0]["id"] as? String)
            #expect(try a.run("sync", "invitations", "--withdraw", id).stdout == "Withdrew invitation \(id).\n")
            #expect(try a.run("sync", "invitations").stdout.hasPrefix("No open invitations"))
            let withdrawn = JournalCLI(home: folder + "/withdrawn")
            #expect(try withdrawn.run(["sync", "init", "--hub", joined.hub, "--key-file", "-"], stdin: printed).status == 0)
            #expect(try withdrawn.run("sync").status == 0)
            #expect(try a.run("sync").status == 0)
            let withdrawnName = try withdrawn.deviceName()
            #expect(try standings(a)[withdrawnName] == "by-key")
            let refused = try a.run("sync", "invitations", "--withdraw", "abcdef12")
            #expect(refused.status == 64 && refused.stderr.contains("no open invitation has the id 'abcdef12'"), "\(refused.stderr)")

            // The key alone carries none.
            let alone = try a.run("sync", "key", "--no-invitation").stdout
            #expect(alone.hasPrefix("JK1-"), "\(alone)")
            #expect(try a.run("sync", "invitations").stdout.hasPrefix("No open invitations"))

            // A new key ends every invitation printed before it.
            _ = try a.run("sync", "key")
            #expect(try a.run("sync", "rotate-key", "--keep", staleName, "--keep", withdrawnName).status == 0)
            #expect(try a.run("sync", "invitations").stdout.hasPrefix("No open invitations"))
        }
    }

    /// An invitation two machines join with is said, whichever card write finds it (here a rename's),
    /// on the inviter and in `sync status`; neither machine is vouched for.
    @Test func anInvitationUsedTwiceIsSaidByTheCardWriteThatFindsIt() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let a = joined.machines[0]
            let printed = try a.run("sync", "key").stdout
            let (e, f) = (JournalCLI(home: folder + "/e"), JournalCLI(home: folder + "/f"))
            for machine in [e, f] {
                #expect(try machine.run(["sync", "init", "--hub", joined.hub, "--key-file", "-"], stdin: printed).status == 0)
                #expect(try machine.run("sync").status == 0)
            }
            let renamed = try a.run("sync", "rename", "desk")
            #expect(renamed.stdout.contains("was used by"), "\(renamed.stdout)")
            let status = try a.run("sync", "status").stdout
            #expect(status.contains("was used by"), "\(status)")
            let standing = try standings(a)
            let (eName, fName) = (try e.deviceName(), try f.deviceName())
            #expect(standing[eName] == "by-key" && standing[fName] == "by-key", "\(standing)")
        }
    }

    /// A machine that joins with the oldest of seventeen invitations finds who invited it, and may
    /// rotate and revoke.
    @Test func theOldestOfSeventeenInvitationsFindsItsInviter() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a"])
            let a = joined.machines[0]
            let first = try a.run("sync", "key").stdout
            for _ in 1...16 { #expect(try a.run("sync", "key").status == 0) }
            let g = JournalCLI(home: folder + "/g")
            #expect(try g.run(["sync", "init", "--hub", joined.hub, "--key-file", "-"], stdin: first).status == 0)
            #expect(try g.run("sync").status == 0)
            #expect(try a.run("sync").status == 0)
            #expect(Set(try standings(g).values) == ["vouched"])
            let rotated = try g.run("sync", "rotate-key")
            #expect(rotated.status == 0, "\(rotated.stderr)")
        }
    }

    /// `journal sync new-device` costs a device neither its name nor its vouch: its new identity's card
    /// keeps the name and carries the old identity's signed hand-over, and the members that vouched for
    /// the old one vouch for the new one, so a new key reaches it.
    @Test func aNewDeviceKeepsItsNameAndItsVouch() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder)
            let (a, b) = (joined.machines[0], joined.machines[1])
            try named(b, "laptop")
            for machine in [b, a, b] { #expect(try machine.run("sync").status == 0) }
            let old = try b.deviceID()
            let renewed = try b.run("sync", "new-device")
            #expect(renewed.status == 0 && renewed.stdout.contains("It keeps its name, laptop, and the machines that vouched for"), "\(renewed.stdout)")
            for machine in [b, a] { #expect(try machine.run("sync").status == 0) }
            let devices = try #require((try a.json("sync", "devices", "--json") as? [String: Any])?["devices"] as? [[String: Any]])
            let new = try b.deviceID()
            let listed = try #require(devices.first { $0["device"] as? String == new })
            #expect(new != old && listed["name"] as? String == "laptop" && listed["standing"] as? String == "vouched", "\(devices)")
            #expect(try a.run("sync", "rotate-key").status == 0)
            let after = try b.run("sync")
            #expect(after.status == 0, "the new key reached it: \(after.stderr)")
        }
    }

    /// A device only a revoked machine vouched for is left out of the new key on purpose, and told who
    /// left it out and what to run; a revoked machine's `add` says once that its journal no longer syncs.
    @Test func aDeviceLeftOutOrRevokedIsToldPlainly() async throws {
        try await withTemporaryDirectory { folder in
            let joined = try JoinedMachines(in: folder, names: ["a", "b"])
            let (a, b) = (joined.machines[0], joined.machines[1])
            try named(a, "desk")
            try named(b, "old laptop")
            #expect(try b.run("sync").status == 0)
            // c joins with the key b printed: b alone vouches for it.
            let c = JournalCLI(home: folder + "/c")
            let printed = try b.run("sync", "key").stdout
            #expect(try c.run(["sync", "init", "--hub", joined.hub, "--key-file", "-"], stdin: printed).status == 0)
            try named(c, "phone")
            for machine in [c, b, a] { #expect(try machine.run("sync").status == 0) }
            #expect(try a.run("sync", "revoke", "old laptop").status == 0)
            let told = try c.run("sync")
            #expect(told.status == 78)
            #expect(told.stderr.contains("which revoked old laptop, the only device that vouched for this one: it was left out on purpose"), "\(told.stderr)")
            #expect(told.stderr.contains("journal sync rotate-key --keep phone"), "\(told.stderr)")

            #expect(try b.run("sync").status == 78)
            let added = try b.run("add", "espresso")
            #expect(added.status == 0)
            #expect(added.stdout.contains("This journal no longer syncs: desk revoked this device on "), "\(added.stdout)")
            let again = try b.run("add", "espresso")
            #expect(!again.stdout.contains("no longer syncs"), "said once: \(again.stdout)")
        }
    }
}

extension JournalCLI {
    /// This machine's device name, as its card on the hub says it.
    func deviceName() throws -> String {
        let devices = try #require((try json("sync", "devices", "--json") as? [String: Any])?["devices"] as? [[String: Any]])
        let id = try deviceID()
        return try #require(devices.first { $0["device"] as? String == id }?["name"] as? String)
    }
}
