import Foundation
import JournalKit
import Testing
import TestSupport

@testable import JournalSync

/// Key epoch records as an attacker writes them: a revoked machine's record made to come first, a
/// record altered or removed, a number that overflows, more records than any hub makes. Each is
/// refused in words, nothing is sealed under a key the attacker holds, and nothing crashes.
@Suite(.onTestThreads) struct KeyEpochHostileTests {
    /// The revoked machine, still holding the key before its revocation, writes a record of its own
    /// that comes first in order and revokes the machine that revoked it: every member stops, and
    /// says why, rather than take up a key the revoked machine made.
    @Test(arguments: HubFlavor.allCases)
    func aRevokedMachineRevokingItsRevokerStopsEveryMemberAndTakesNothingOver(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, key, _) = try await KeyEpochTests.threeMachines(folder, flavor)
            let revocation = try await a.engine.rotateKey(revoking: [c.store.deviceID])
            let hub = c.engine.hub
            let members = try await KeyEpochTests.publicKeys(keptBy: c) { $0 != a.store.deviceID }
            let first = [UInt8](repeating: 0, count: 15) + [1]
            #expect(first.lexicographicallyPrecedes(revocation.epoch.id))
            let takeover = try EpochRecord.make(
                parent: .first, parentKey: key, members: members,
                revoked: [EpochRecord.Revocation(device: a.store.deviceID, through: 0)], maker: c.engine.deviceKeys,
                makerID: c.store.deviceID, at: revocation.madeAt, hubID: hub.id, id: first)
            try await hub.writeEpochRecord(takeover.sealed, as: takeover.record.epoch)
            for machine in [a, b] {
                _ = try await machine.store.add(drink(minute: 40, note: "must not be sealed under the takeover key"))
                await #expect {
                    try await machine.sync()
                } throws: { error in
                    guard case SyncError.epochsInConflict? = error as? SyncError else { return false }
                    return true
                }
                #expect(await machine.engine.key.check != takeover.key.check)
            }
            try await hub.refresh(after: [:])
            for device in [a.store.deviceID, b.store.deviceID] {
                for segment in try await hub.log(of: device).names {
                    let sealed = try await hub.read(segment, of: device)
                    #expect(try !Self.opens(sealed, with: takeover), "\(segment) of \(device) is sealed under the takeover key")
                }
            }
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// The revoked machine, still holding the first key, makes a chain of two records under a device
    /// id and signing key it made up, wrapping its keys for the members: refused as made beside the
    /// revocation by a device it does not keep, and nothing is sealed under a key the chain made.
    @Test(arguments: HubFlavor.allCases)
    func aRevokedMachineUnderAnotherNameMakesNoEpochTheMembersTakeUp(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, key, _) = try await KeyEpochTests.threeMachines(folder, flavor)
            let revocation = try await a.engine.rotateKey(revoking: [c.store.deviceID])
            let hub = c.engine.hub
            let members = try await KeyEpochTests.publicKeys(keptBy: c) { $0 != c.store.deviceID }
            let (alias, aliasKeys) = (DeviceID(rawValue: UUIDText.random()), DeviceKeys())
            let first = try EpochRecord.make(
                parent: .first, parentKey: key, members: members, revoked: [], maker: aliasKeys, makerID: alias, at: revocation.madeAt,
                hubID: hub.id)
            let second = try EpochRecord.make(
                parent: first.record.epoch, parentKey: first.key, members: members, revoked: [], maker: aliasKeys, makerID: alias,
                at: revocation.madeAt, hubID: hub.id)
            for made in [first, second] { try await hub.writeEpochRecord(made.sealed, as: made.record.epoch) }
            for machine in [a, b] {
                _ = try await machine.store.add(drink(minute: 40, note: "for the members only"))
                let report = try await machine.sync()
                #expect(await machine.engine.epochs.current == revocation.epoch)
                #expect(
                    report.setAside.contains { $0.name == "epochs/" + first.record.epoch.fileName && $0.reason.contains("made beside the revocation") }
                        || machine.store.deviceID == a.store.deviceID,
                    "\(report)")
                let newest = try #require(try await KeyEpochTests.segmentEpochs(of: machine.store.deviceID, on: hub).last)
                #expect(newest == revocation.epoch)
            }
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// The revoked machine, under a made-up name, revokes the machine that revoked it: the two
    /// revocations shut out each other's maker, and every member stops rather than pick one.
    @Test func aRevokedMachineUnderAnotherNameRevokingItsRevokerStopsEveryMember() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, key, _) = try await KeyEpochTests.threeMachines(folder, .folder)
            let revocation = try await a.engine.rotateKey(revoking: [c.store.deviceID])
            let hub = c.engine.hub
            let members = try await KeyEpochTests.publicKeys(keptBy: c) { $0 == b.store.deviceID }
            let takeover = try EpochRecord.make(
                parent: .first, parentKey: key, members: members, revoked: [EpochRecord.Revocation(device: a.store.deviceID, through: 0)],
                maker: DeviceKeys(), makerID: DeviceID(rawValue: UUIDText.random()), at: revocation.madeAt, hubID: hub.id,
                id: [UInt8](repeating: 0, count: 16))
            try await hub.writeEpochRecord(takeover.sealed, as: takeover.record.epoch)
            for machine in [a, b] {
                _ = try await machine.store.add(drink(minute: 40))
                await #expect {
                    try await machine.sync()
                } throws: { error in
                    guard case SyncError.epochsInConflict? = error as? SyncError else { return false }
                    return true
                }
                #expect(await machine.engine.key.check != takeover.key.check)
            }
            for device in [a.store.deviceID, b.store.deviceID] {
                for epoch in try await KeyEpochTests.segmentEpochs(of: device, on: hub) { #expect(epoch != takeover.record.epoch) }
            }
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// A record that revokes its own maker (to name how far its own log is taken) is refused as it is read.
    @Test func aRecordRevokingItsOwnMakerIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, key, _) = try await KeyEpochTests.threeMachines(folder, .folder)
            let hub = c.engine.hub
            let made = try EpochRecord.make(
                parent: .first, parentKey: key, members: [c.store.deviceID: c.engine.deviceKeys.publicKeys],
                revoked: [EpochRecord.Revocation(device: c.store.deviceID, through: Int64.max)], maker: c.engine.deviceKeys,
                makerID: c.store.deviceID, at: Timestamp(milliseconds: 1_795_262_400_000), hubID: hub.id)
            try await hub.writeEpochRecord(made.sealed, as: made.record.epoch)
            let report = try await a.sync()
            #expect(report.setAside.contains { $0.reason.contains("revokes the device that made it") }, "\(report)")
            #expect(await a.engine.epochs.revoked.isEmpty)
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// The revoked machine writes a record that claims the first key as its own (its check, its
    /// parent's key sealed under it): a member still on the first key takes the revocation's key up
    /// all the same, rather than take the record for its key's and stop.
    @Test(arguments: HubFlavor.allCases)
    func aRecordClaimingTheFirstKeyMisleadsNoOne(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, key, _) = try await KeyEpochTests.threeMachines(folder, flavor)
            let revocation = try await a.engine.rotateKey(revoking: [c.store.deviceID])
            let hub = c.engine.hub
            let claim = try EpochRecord.make(
                parent: .first, parentKey: SyncKey(), members: [:], revoked: [], maker: c.engine.deviceKeys, makerID: c.store.deviceID,
                at: revocation.madeAt, hubID: hub.id, id: [UInt8](repeating: 0, count: 16), key: key)
            try await hub.writeEpochRecord(claim.sealed, as: claim.record.epoch)
            let report = try await b.sync()
            #expect(report.failures.isEmpty, "\(report)")
            #expect(await b.engine.epochs.current == revocation.epoch)
            #expect(await b.engine.key.check == a.engine.key.check)
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// True when a signed segment is sealed under the epoch `made` started.
    static func opens(_ sealed: [UInt8], with made: (record: EpochRecord, sealed: [UInt8], key: SyncKey)) throws -> Bool {
        sealed.count > 25 && sealed[4] >= 3 && KeyEpoch(bytes: sealed[5..<25]) == made.record.epoch
    }

    /// A record on a folder hub altered (one byte of its signature) after the members took up its key:
    /// they keep the record as they first read it and the key it gave, say so once, and never go back
    /// to sealing under the key it replaced.
    @Test func anAlteredRecordIsNotFollowedBackToTheKeyItReplaced() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, oldKey, _) = try await KeyEpochTests.threeMachines(folder, .folder)
            let record = try await a.engine.rotateKey()
            try await b.sync()
            let newKey = await b.engine.key
            #expect(newKey.check != oldKey.check)
            let path = folder + "/hub/journal-hub-v1/epochs/" + record.epoch.fileName
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[10] ^= 0x40
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            _ = try await b.store.add(drink(minute: 50))
            let report = try await b.sync()
            #expect(report.setAside.contains { $0.name == "epochs/" + record.epoch.fileName && $0.reason.contains("changed on the hub") }, "\(report)")
            #expect(await b.engine.key.check == newKey.check)
            #expect(try await KeyEpochTests.segmentEpochs(of: b.store.deviceID, on: b.engine.hub).last == record.epoch)
            // Said once: the next sync is quiet.
            #expect(try await b.sync().setAside.isEmpty)
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// A record whose parent's number is the largest there is: refused in words, never a crash.
    @Test func anOverflowingNumberIsRefusedInWords() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, _, _) = try await KeyEpochTests.threeMachines(folder, .folder)
            let epochs = folder + "/hub/journal-hub-v1/epochs"
            try FileManager.default.createDirectory(atPath: epochs, withIntermediateDirectories: true)
            let id = String(repeating: "ab", count: 16)
            let json = """
                {"number":1,"id":"\(id)","parent_number":4294967295,"parent_id":"\(id)","maker":"\(a.store.deviceID.rawValue)",\
                "maker_key":"\(String(repeating: "00", count: 32))","made_at":0,"revoked":[],"keys":[],"parent_key":"00",\
                "key_check":"\(String(repeating: "0", count: 32))"}
                """
            let record = Array("JEPO".utf8) + [1] + [UInt8](repeating: 0, count: 96) + Array(json.utf8)
            try Data(record).write(to: URL(fileURLWithPath: epochs + "/1-\(id).epoch"))
            let report = try await a.sync()
            #expect(report.setAside.contains { $0.reason.contains("not the one before it") }, "\(report)")

            // More records than any hub makes stop nothing: junk is set aside below.
            #expect(try await a.sync().setAside.isEmpty)
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// 257 four-byte files named like epoch records (anyone who can write the folder), or rows (anyone
    /// who can insert): every sync of every device stopped for good. Now each is read once, said once
    /// and counted, the syncs go on, and nothing real is pushed out of view.
    @Test(arguments: HubFlavor.allCases)
    func junkEpochRecordsAreSetAsideOnceAndStopNoSync(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (place, database) = try flavor.newPlaceAndDatabase(in: folder)
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", place: place, key: key)
            let b = try await Machine.make(folder, name: "b", place: place, key: key, invitedBy: a)
            for machine in [a, b, a, b] { try await machine.sync() }
            let rotation = try await a.engine.rotateKey()
            try flavor.plantJunkEpochRecords(257, folder: folder, database: database)
            _ = try await a.store.add(drink(minute: 70, note: "after the junk"))
            try await a.sync()
            let first = try await b.sync()
            #expect(first.received == 1 && first.failures.isEmpty, "\(first)")
            // The first hundred named, the rest counted.
            #expect(first.setAside.filter { $0.name.hasPrefix("epochs/2-") }.count + first.moreSetAside == 257)
            #expect(await b.engine.epochs.current == rotation.epoch)
            // Read and said once: the next sync reads none of them again.
            let second = try await b.sync()
            #expect(second.setAside.isEmpty, "\(second)")
            #expect(try await b.store.refusedHubItems(hubID: b.engine.hub.id).count == 257)
            for machine in [a, b] { await machine.engine.close() }
        }
    }
}
