import Foundation
import JournalKit
import Testing
import TestSupport

@testable import JournalSync

/// Key epochs on each kind of hub: a rotation reaches every device without anyone carrying a key, a
/// revoked device reads nothing newer and what it publishes after is refused everywhere, and two
/// rotations made at once converge.
@Suite(.onTestThreads) struct KeyEpochTests {
    /// Three machines on one hub, each having synced twice: every card known to every device.
    static func threeMachines(_ folder: String, _ flavor: HubFlavor) async throws -> (Machine, Machine, Machine, SyncKey, any HubPlace) {
        let (machines, key, place) = try await Self.machines(["a", "b", "c"], folder, flavor)
        return (machines[0], machines[1], machines[2], key, place)
    }

    /// Machines of these names on one hub, each having added a drink and synced twice: every card
    /// known to every device.
    static func machines(_ names: [String], _ folder: String, _ flavor: HubFlavor) async throws -> ([Machine], SyncKey, any HubPlace) {
        let key = SyncKey()
        let place = try flavor.newPlace(in: folder)
        var machines: [Machine] = []
        // The first makes the hub; the others join with keys it printed, each with an invitation.
        for name in names { machines.append(try await Machine.make(folder, name: name, place: place, key: key, invitedBy: machines.first)) }
        for (index, machine) in machines.enumerated() { _ = try await machine.store.add(drink(minute: Int64(index))) }
        for _ in 0..<2 { for machine in machines { try await machine.sync() } }
        return (machines, key, place)
    }

    /// The public keys of the devices whose cards `machine` keeps, of those `including` takes: whom a
    /// record made by hand is wrapped for.
    static func publicKeys(keptBy machine: Machine, where including: (DeviceID) -> Bool) async throws -> [DeviceID: DevicePublicKeys] {
        var keys: [DeviceID: DevicePublicKeys] = [:]
        for card in try await machine.store.deviceCards(hubID: machine.engine.hub.id) where including(card.device) { keys[card.device] = card.publicKeys }
        return keys
    }

    /// Every epoch whose key `machine` can work out from the records on its hub with a program of its
    /// own, whatever its journal makes of them: the keys it holds, each key any record wraps for it,
    /// and every parent's key through them.
    static func keysWithinReach(of machine: Machine) async throws -> Set<KeyEpoch> { Set(try await reachableKeys(of: machine).keys) }

    /// The keys `keysWithinReach` finds, by epoch: what a revoked machine can seal and open with.
    static func reachableKeys(of machine: Machine) async throws -> [KeyEpoch: SyncKey] {
        let hub = machine.engine.hub
        let records = try await hub.allEpochRecords().compactMap { epoch, read in
            (try? read.get()).flatMap { try? EpochRecord.parse($0, as: epoch, hubID: hub.id).record }
        }
        var keys = await machine.engine.epochs.keys
        var found = true
        while found {
            found = false
            for record in records {
                if keys[record.epoch] == nil, let key = record.unwrap(for: machine.store.deviceID, keys: machine.engine.deviceKeys, hubID: hub.id) {
                    keys[record.epoch] = key
                    found = true
                }
                if let key = keys[record.epoch], keys[record.parent] == nil, let parent = record.parentKey(given: key, hubID: hub.id) {
                    keys[record.parent] = parent
                    found = true
                }
            }
        }
        return keys
    }

    /// The epoch each of `device`'s segments on `hub` is sealed under, newest last.
    static func segmentEpochs(of device: DeviceID, on hub: any Hub) async throws -> [KeyEpoch] {
        try await hub.refresh(after: [:])
        var epochs: [KeyEpoch] = []
        for name in try await hub.log(of: device).names.sorted(by: { $0.last < $1.last }) {
            let sealed = try await hub.read(name, of: device)
            if sealed.count > 25, sealed[4] >= 3, let epoch = KeyEpoch(bytes: sealed[5..<25]) { epochs.append(epoch) }
        }
        return epochs
    }

    @Test(arguments: HubFlavor.allCases)
    func aRotationReachesEveryDeviceAndTheOldKeyOpensNothingNew(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, oldKey, place) = try await Self.threeMachines(folder, flavor)
            let record = try await a.engine.rotateKey()
            #expect(record.epoch.number == 1 && Set(record.reaches) == Set([a, b, c].map(\.store.deviceID)))
            #expect(await a.engine.epochs.current == record.epoch)
            #expect(await a.engine.key.check != oldKey.check)

            _ = try await a.store.add(drink(minute: 10, note: "after the rotation"))
            try await a.sync()
            for machine in [b, c] {
                let report = try await machine.sync()
                #expect(report.received == 1 && report.failures.isEmpty, "\(report)")
                #expect(await machine.engine.epochs.current == record.epoch)
                #expect(await machine.engine.key.check == a.engine.key.check)
            }
            _ = try await c.store.add(drink(minute: 11, note: "from c, in the new epoch"))
            try await c.sync()
            try await a.sync()
            try await b.sync()
            #expect(try await a.state() == b.state())
            #expect(try await b.state() == c.state())

            // What a published after the rotation does not open with the old key, however it is held.
            let hub = a.engine.hub
            try await hub.refresh(after: [:])
            let latest = try #require(try await hub.log(of: a.store.deviceID).names.last)
            let sealed = try await hub.read(latest, of: a.store.deviceID)
            let author = SegmentAuthor(signingKey: a.engine.deviceKeys.signing.publicKey, signedFrom: nil)
            #expect(throws: SegmentContentError.self) {
                try SegmentSeal.open(
                    sealed, keys: { $0 == .first ? oldKey : nil }, author: author, hubID: hub.id, device: a.store.deviceID, name: latest)
            }
            // The old key still opens the hub's past: a device holding only the new key reads it all.
            let late = try await Machine.make(folder, name: "late", place: place, key: a.engine.key)
            try await late.sync()
            #expect(try await late.state() == a.state())
            for machine in [a, b, c, late] { await machine.engine.close() }
        }
    }

    @Test(arguments: HubFlavor.allCases)
    func aRevokedDeviceReadsNothingNewAndWhatItPublishesAfterIsRefused(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, oldKey, _) = try await Self.threeMachines(folder, flavor)
            let record = try await a.engine.rotateKey(revoking: [c.store.deviceID])
            #expect(Set(record.reaches) == Set([a.store.deviceID, b.store.deviceID]))
            #expect(record.revoked.map(\.device) == [c.store.deviceID])

            _ = try await a.store.add(drink(minute: 20, note: "not for c"))
            try await a.sync()
            // C is told, and changes nothing: not its journal, not the hub.
            _ = try await c.store.add(drink(minute: 21, note: "from c after its revocation"))
            let before = try await c.state()
            await #expect {
                try await c.sync()
            } throws: { error in
                guard case SyncError.deviceRevoked? = error as? SyncError else { return false }
                return true
            }
            #expect(try await c.state() == before)
            #expect(await c.engine.epochKey(record.epoch) == nil)

            // C, or whoever holds its keys, writes on anyway under the key it kept: refused by every device.
            let hub = c.engine.hub
            let anchor = try await b.store.anchors(hubID: hub.id)[c.store.deviceID] ?? 0
            let name = SegmentName(first: anchor + 1, last: anchor + 1)
            let page = try await c.store.ownChanges(after: 0, limit: 2000)
            let forged = try SegmentSeal.seal(
                try SegmentCodec.encode(page.records, device: c.store.deviceID).bytes, format: SegmentSeal.signedFormat, epoch: .first, key: oldKey, signer: c.engine.deviceKeys, hubID: hub.id,
                device: c.store.deviceID, name: name)
            _ = try await hub.write(forged, as: name, of: c.store.deviceID)
            let report = try await b.sync()
            #expect(report.received == 1, "\(report)")
            #expect(!(try await b.state().contains { $0.drink.note == "from c after its revocation" }))
            let said = report.setAside.map(\.reason) + (report.failures + report.skipped).map(\.reason)
            #expect(said.contains { $0.contains("revoked by") }, "\(report)")
            // Said once: the next sync says nothing more of it.
            let again = try await b.sync()
            #expect(again.setAside.isEmpty && again.failures.isEmpty, "\(again)")
            #expect(try await a.sync().failures.isEmpty)
            #expect(try await a.state() == b.state())
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// A device that never read the rotating device's card (it synced before that device's first
    /// sync) reads the record all the same: its card, sealed under the new key, comes after.
    /// A revoked machine's unsigned segment under a made-up id, written after the records revoking it:
    /// a device that has not read those yet takes nothing of it when a ring names that log. Read on
    /// what its last whole sync learnt (no record then, so unsigned segments taken without limit), it
    /// took the forged drink (`KeyEpochPropertyTests` found it).
    @Test(arguments: HubFlavor.allCases)
    func aRingNamingAMadeUpLogAfterARevocationTakesNothingOfIt(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, firstKey, _) = try await Self.threeMachines(folder, flavor)
            _ = try await a.engine.rotateKey(revoking: [c.store.deviceID])
            let madeUp = DeviceID(rawValue: UUIDText.random())
            let plaintext = RevocationHoldsTests.listing(["\"\(UUIDText.random())\", \"espresso\", 999, 1795300000000, \"forged\", 0"], origin: madeUp)
            let name = SegmentName(first: 1, last: 1)
            let sealed = try SegmentSeal.sealUnsigned(Array(plaintext.utf8), format: 2, key: firstKey, device: madeUp, name: name)
            _ = try await c.engine.hub.write(sealed, as: name, of: madeUp)
            _ = try await b.sync(.logs([madeUp]))
            #expect(!(try await b.store.drinks().contains { $0.caffeineMg == 999 }))
            // The whole sync it went on with read the revocation.
            #expect(await b.engine.epochs.revoked[c.store.deviceID] != nil)
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    @Test(arguments: HubFlavor.allCases)
    func aDeviceThatNeverSawTheMakersCardTakesTheNewKeyUp(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let place = try flavor.newPlace(in: folder)
            let a = try await Machine.make(folder, name: "a", place: place, key: key)
            let b = try await Machine.make(folder, name: "b", place: place, key: key)
            _ = try await a.store.add(drink(minute: 1))
            try await a.sync()
            try await b.sync()
            let record = try await b.engine.rotateKey()
            _ = try await b.store.add(drink(minute: 2, note: "from b, after"))
            try await b.sync()
            let report = try await a.sync()
            #expect(report.received == 1 && report.setAside.isEmpty && report.failures.isEmpty, "\(report)")
            #expect(await a.engine.epochs.current == record.epoch)
            #expect(try await a.store.deviceCard(of: b.store.deviceID, hubID: a.engine.hub.id)?.epoch == 1)
            await a.engine.close()
            await b.engine.close()
        }
    }

    /// Someone who can write into the hub but holds no key makes a record wrapping a key of their own
    /// for a member: it does not prove the parent's key, so it is refused, said once, and nothing is
    /// sealed under that key.
    @Test(arguments: HubFlavor.allCases)
    func aRecordMadeWithoutTheKeyIsRefused(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, key, _) = try await Self.threeMachines(folder, flavor)
            let stranger = DeviceKeys()
            let forged = try EpochRecord.make(
                parent: .first, parentKey: SyncKey(), members: [a.store.deviceID: a.engine.deviceKeys.publicKeys], revoked: [],
                maker: stranger, makerID: DeviceID(rawValue: UUIDText.random()), at: Timestamp(milliseconds: 1_795_262_400_000),
                hubID: a.engine.hub.id)
            try await a.engine.hub.writeEpochRecord(forged.sealed, as: forged.record.epoch)
            let report = try await a.sync()
            #expect(report.setAside.contains { $0.reason.contains("not by a member") }, "\(report)")
            #expect(await a.engine.epochs.current == .first)
            #expect(await a.engine.key.check == key.check)
            #expect(try await a.sync().setAside.isEmpty)
            _ = try await a.store.add(drink(minute: 5, note: "still under the hub's key"))
            try await a.sync()
            #expect(try await b.sync().received == 1)
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// Machines a, b, c and d, after a revoked c at the same moment as b revoked d, from the same
    /// epoch, before either saw the other's (b's record is written beside a's as b would have).
    static func twoRevocationsAtOnce(_ folder: String, _ flavor: HubFlavor) async throws -> [Machine] {
        let (machines, _, _) = try await Self.machines(["a", "b", "c", "d"], folder, flavor)
        let (a, b, c, d) = (machines[0], machines[1], machines[2], machines[3])
        let hub = b.engine.hub
        var members = try await Self.publicKeys(keptBy: b) { $0 != d.store.deviceID }
        members[b.store.deviceID] = b.engine.deviceKeys.publicKeys
        let through = try await b.store.anchors(hubID: hub.id)[d.store.deviceID] ?? 0
        let sibling = try EpochRecord.make(
            parent: .first, parentKey: await b.engine.key, members: members,
            revoked: [EpochRecord.Revocation(device: d.store.deviceID, through: through)], maker: b.engine.deviceKeys,
            makerID: b.store.deviceID, at: Timestamp(milliseconds: 1_795_262_400_000), hubID: hub.id)
        let record = try await a.engine.rotateKey(revoking: [c.store.deviceID])
        try await hub.writeEpochRecord(sibling.sealed, as: sibling.record.epoch)
        #expect(record.reaches.contains(d.store.deviceID) && sibling.record.reaches.contains(c.store.deviceID))
        return machines
    }

    /// A revokes C at the same moment as B revokes D, from the same epoch, before either sees the
    /// other's: each new key reaches the device the other shuts out, so neither may seal anything, and
    /// the members go on under a key of a new epoch that neither C nor D can reach.
    @Test(arguments: HubFlavor.allCases)
    func twoRevocationsAtOnceShutBothOutAndNeitherReadsWhatFollows(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let machines = try await Self.twoRevocationsAtOnce(folder, flavor)
            let (a, b, c, d) = (machines[0], machines[1], machines[2], machines[3])
            let hub = b.engine.hub

            for (index, machine) in [a, b].enumerated() { _ = try await machine.store.add(drink(minute: Int64(30 + index), note: "after both")) }
            for _ in 0..<2 { for machine in [a, b] { #expect(try await machine.sync().failures.isEmpty) } }
            #expect(try await a.state() == b.state())
            #expect(try await a.state().count == 6)
            let current = await a.engine.epochs.current
            #expect(await b.engine.epochs.current == current)
            for shutOut in [c, d] {
                await #expect {
                    try await shutOut.sync()
                } throws: { error in
                    guard case SyncError.deviceRevoked? = error as? SyncError else { return false }
                    return true
                }
                let reach = try await Self.keysWithinReach(of: shutOut)
                #expect(!reach.contains(current))
                for member in [a, b] {
                    let newest = try #require(try await Self.segmentEpochs(of: member.store.deviceID, on: hub).last)
                    #expect(!reach.contains(newest), "the newest segment of \(member.store.deviceID) is sealed under \(newest), within reach of a revoked device")
                }
            }
            for machine in machines { await machine.engine.close() }
        }
    }

    /// When the new epoch two revocations call for cannot be written (a full disk), the device keeps
    /// the key it held: it does not go back to the hub's first key, which the revoked hold, neither in
    /// memory nor in its key file (`journal sync key` would print it, and a member's next sync would
    /// start from it).
    @Test(arguments: HubFlavor.allCases)
    func aNewEpochThatCannotBeWrittenLeavesTheKeyAsItWas(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let machines = try await Self.twoRevocationsAtOnce(folder, flavor)
            let a = machines[0]
            let held = await a.engine.key
            #expect(held.check != a.engine.hub.firstKeyCheck)
            let keyPath = folder + "/a.key"
            try held.save(to: keyPath)
            let engine = SyncEngine(
                store: a.store, hub: WithholdingHub(base: a.engine.hub, refusesEpochRecords: true), key: held, keyPath: keyPath,
                deviceKeys: a.engine.deviceKeys)
            _ = try await a.store.add(drink(minute: 40, note: "while the disk is full"))
            let published = try await Self.segmentEpochs(of: a.store.deviceID, on: a.engine.hub)
            await #expect {
                try await engine.sync()
            } throws: { error in
                guard error.hubCondition == .unreachable else { return false }
                return true
            }
            #expect(await engine.key.check == held.check)
            #expect(try SyncKey.load(from: keyPath)?.check == held.check)
            #expect(try await Self.segmentEpochs(of: a.store.deviceID, on: a.engine.hub) == published)
            // With room again, the members go on under a new epoch.
            let report = try await a.sync()
            #expect(report.failures.isEmpty, "\(report)")
            #expect(await a.engine.epochs.current.number == 2)
            for machine in machines { await machine.engine.close() }
        }
    }

    @Test(arguments: HubFlavor.allCases)
    func twoRotationsAtOnceConvergeAndLoseNothing(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, _, _) = try await Self.threeMachines(folder, flavor)
            // B rotates at the same moment as A, from the same epoch, before either sees the other's.
            let hub = b.engine.hub
            var members = try await Self.publicKeys(keptBy: b) { _ in true }
            members[b.store.deviceID] = b.engine.deviceKeys.publicKeys
            let sibling = try EpochRecord.make(
                parent: .first, parentKey: await b.engine.key, members: members, revoked: [], maker: b.engine.deviceKeys,
                makerID: b.store.deviceID, at: Timestamp(milliseconds: 1_795_262_400_000), hubID: hub.id)
            let record = try await a.engine.rotateKey()
            try await hub.writeEpochRecord(sibling.sealed, as: sibling.record.epoch)

            for (index, machine) in [a, b, c].enumerated() { _ = try await machine.store.add(drink(minute: Int64(30 + index))) }
            for _ in 0..<2 { for machine in [a, b, c] { #expect(try await machine.sync().failures.isEmpty) } }
            let later = max(record.epoch, sibling.record.epoch)
            for machine in [a, b, c] {
                #expect(await machine.engine.epochs.current == later)
                #expect(await machine.engine.epochs.valid.count == 2)
            }
            #expect(try await a.state() == b.state())
            #expect(try await b.state() == c.state())
            #expect(try await a.state().count == 6)
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }
}
