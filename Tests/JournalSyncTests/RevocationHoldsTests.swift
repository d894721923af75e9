import Foundation
import JournalKit
import Testing
import TestSupport

@testable import JournalSync

/// Issue 31's findings, each as the attacker would go about it: a revoked machine with every key and
/// file it kept, a member making devices up, someone who can only write the hub's files or rows. On
/// both kinds of hub, with real journals.
@Suite(.onTestThreads) struct RevocationHoldsTests {
    /// What a machine can make with a key it kept: a device under an id of its own choosing, its card
    /// sealed under that key, its segments signed with keys it made.
    struct Forger {
        let device = DeviceID(rawValue: UUIDText.random())
        let keys = DeviceKeys()

        func card(name: String = "new laptop", epoch: KeyEpoch, key: SyncKey, hubID: HubID, vouches: [DeviceCard.Vouch]? = nil) throws -> [UInt8] {
            var card = DeviceCardTests.card(device, keys: keys, name: name, at: 1_795_262_400_000)
            card.signedFrom = 1
            card.vouches = vouches
            return try CardSeal.seal(card, keys: keys, epoch: epoch, key: key, hubID: hubID)
        }

        /// A signed segment of this device holding `drinks` (each a record's array, without its clock
        /// and origin, which are this device's).
        func segment(_ drinks: [String], name: SegmentName, epoch: KeyEpoch, key: SyncKey, hubID: HubID) throws -> [UInt8] {
            let plaintext = RevocationHoldsTests.listing(drinks, origin: device)
            return try SegmentSeal.seal(Array(plaintext.utf8), format: 3, epoch: epoch, key: key, signer: keys, hubID: hubID, device: device, name: name)
        }

        var vouch: DeviceCard.Vouch { DeviceCard.Vouch(device: device, signingKey: keys.publicKeys.signing) }
    }

    /// A segment's plaintext listing `drinks` made by `origin`, written a day after the machines' drinks.
    static func listing(_ drinks: [String], origin: DeviceID) -> String {
        let clock = HybridTimestamp(milliseconds: 1_795_348_800_000).rawValue
        return "{\"drinks\": [" + drinks.map { "[\($0), \"\(clock)\", \"\(origin)\"]" }.joined(separator: ", ") + "], \"kinds\": []}"
    }

    /// A new drink of 999 mg, and the deletion of `victim`: what a forger wants every member to apply.
    static func forgedDrinks(deleting victim: Drink) -> [String] {
        [
            "\"99999999-9999-4999-8999-999999999999\", \"espresso\", 999, 1795300000000, \"forged\", 0",
            "\"\(victim.id.rawValue)\", \"\(victim.kind)\", \(victim.caffeineMg), \(victim.consumedAt.milliseconds), null, 1",
        ]
    }

    /// Finding 1: after A revokes C, C joins the hub again as a brand-new device with the key it kept
    /// (its card sealed under that key, its segments signed by keys it made), and writes an unsigned,
    /// old-format log under yet another id. Neither a forged drink nor a deletion reaches a member, the
    /// new devices are no members, and each is said once.
    @Test(arguments: HubFlavor.allCases)
    func aRevokedMachineChangesNothingUnderANewIdOrUnsigned(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, firstKey, _) = try await KeyEpochTests.threeMachines(folder, flavor)
            let victim = try #require(try await a.store.drinks().first)
            try await a.engine.rotateKey(revoking: [c.store.deviceID])
            try await b.sync()
            await #expect(throws: SyncError.self) { try await c.sync() }
            let before = [try await a.state(), try await b.state()]

            // Every key C holds: the first, and nothing newer.
            let hub = c.engine.hub
            #expect(await c.engine.epochs.keys.keys.sorted() == [.first])
            let forger = Forger()
            try await hub.writeCard(try forger.card(epoch: .first, key: firstKey, hubID: hub.id), of: forger.device)
            let name = SegmentName(first: 1, last: 2)
            _ = try await hub.write(
                try forger.segment(Self.forgedDrinks(deleting: victim), name: name, epoch: .first, key: firstKey, hubID: hub.id), as: name,
                of: forger.device)
            let unsigned = DeviceID(rawValue: UUIDText.random())
            let plaintext = Self.listing(Self.forgedDrinks(deleting: victim), origin: unsigned)
            _ = try await hub.write(
                try SegmentSeal.sealUnsigned(Array(plaintext.utf8), format: 2, key: firstKey, device: unsigned, name: name), as: name, of: unsigned)

            for (index, machine) in [a, b].enumerated() {
                let report = try await machine.sync()
                #expect(report.received == 0 && report.failures.isEmpty, "\(report)")
                #expect(try await machine.state() == before[index])
                #expect(!(try await machine.store.drinks().contains { $0.caffeineMg == 999 }))
                #expect(report.setAside.contains { $0.device == forger.device && $0.reason.contains("not a member") }, "\(report)")
                #expect(report.setAside.contains { $0.device == unsigned && $0.reason.contains("not signed") }, "\(report)")
                #expect(await machine.engine.standing(of: forger.device) == .outside)
                // Said once.
                let again = try await machine.sync()
                #expect(again.setAside.isEmpty && again.received == 0, "\(again)")
            }
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// Finding 2: a member posts 600 cards under made-up ids (valid: sealed under the current key,
    /// each signed by keys it made), and vouches for 100 of them, each of which vouches for 5 more.
    /// Rotating the key still works, and leaves out every one nobody real vouches for; revoking the
    /// member takes every device only it vouched for out with it; revoking one of the fakes works too.
    @Test(arguments: HubFlavor.allCases)
    func noNumberOfMadeUpDevicesStopsARotationOrARevocation(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, m, _, _) = try await KeyEpochTests.threeMachines(folder, flavor)
            let hub = m.engine.hub
            let (epoch, key) = try await m.engine.sealingKey()
            let fakes = (0..<600).map { _ in Forger() }
            for (index, fake) in fakes.enumerated() {
                let vouches = index < 100 ? fakes[(100 + index * 5)..<(105 + index * 5)].map(\.vouch) : nil
                try await hub.writeCard(try fake.card(name: "fake \(index)", epoch: epoch, key: key, hubID: hub.id, vouches: vouches), of: fake.device)
            }
            // The member's own card vouches for the first hundred: written as its journal writes cards.
            var own = try #require(try await m.store.deviceCard(of: m.store.deviceID, hubID: hub.id))
            own.vouches = (own.vouches ?? []) + fakes.prefix(100).map(\.vouch)
            own.writtenAt = Timestamp(milliseconds: own.writtenAt.milliseconds + 1)
            try await hub.writeCard(try CardSeal.seal(own, keys: m.engine.deviceKeys, epoch: epoch, key: key, hubID: hub.id), of: m.store.deviceID)
            for machine in [a, b] { try await machine.sync() }

            let rotation = try await a.engine.newEpoch()
            #expect(rotation.record.reaches.count == EpochRecord.maximumReached)
            #expect(Set([a, b, m].map(\.store.deviceID)).isSubset(of: rotation.record.reaches))
            #expect(rotation.leftOut.filter { $0.reason == .beyondLimit }.count == 603 - EpochRecord.maximumReached)
            #expect(rotation.leftOut.allSatisfy { $0.reason == .beyondLimit })
            for machine in [b, m] { try await machine.sync() }

            let revocation = try await a.engine.newEpoch(revoking: [m.store.deviceID])
            #expect(Set(revocation.record.reaches) == Set([a, b].map(\.store.deviceID)), "\(revocation.leftOut.count)")
            try await b.sync()
            let fake = try await b.engine.newEpoch(revoking: [fakes[0].device])
            #expect(Set(fake.record.reaches) == Set([a, b].map(\.store.deviceID)))
            for machine in [a, b, m] { await machine.engine.close() }
        }
    }

    /// Finding 3: a card whose X25519 key is the all-zero point (anyone could compute what is wrapped
    /// for it) is refused where it is read, and no key is ever wrapped for it.
    @Test(arguments: HubFlavor.allCases)
    func aCardWithALowOrderKeyIsRefusedAndNeverWrappedFor(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, _, _) = try await KeyEpochTests.threeMachines(folder, flavor)
            let hub = c.engine.hub
            let (epoch, key) = try await c.engine.sealingKey()
            let forger = Forger()
            var card = DeviceCardTests.card(forger.device, keys: forger.keys, at: 1_795_262_400_000)
            card.agreementKey = [UInt8](repeating: 0, count: 32)
            try await hub.writeCard(try CardSeal.seal(card, keys: forger.keys, epoch: epoch, key: key, hubID: hub.id), of: forger.device)
            let report = try await a.sync()
            #expect(report.setAside.contains { $0.device == forger.device && $0.reason.contains("small order") }, "\(report)")
            #expect(try await a.store.deviceCard(of: forger.device, hubID: hub.id) == nil)
            let rotation = try await a.engine.rotateKey()
            #expect(!rotation.reaches.contains(forger.device))
            #expect(throws: CardError.self) {
                try EpochRecord.make(
                    parent: .first, parentKey: key, members: [forger.device: card.publicKeys], revoked: [], maker: a.engine.deviceKeys,
                    makerID: a.store.deviceID, at: rotation.madeAt, hubID: hub.id)
            }
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// Finding 5: 1,000 junk cards named to come first in order hid every device that joined later (only
    /// the first 1,000 names were read): its drinks were never applied, and it was said to be "not on
    /// the hub yet". Now every card is listed; the newcomer's drinks arrive and a new key reaches it.
    @Test(arguments: HubFlavor.allCases)
    func junkCardsHideNoDeviceThatJoinsLater(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (place, database) = try flavor.newPlaceAndDatabase(in: folder)
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", place: place, key: key)
            try await a.sync()
            try flavor.plantJunkCards(1000, folder: folder, database: database)
            let late = try await Machine.make(folder, name: "late", place: place, key: key, invitedBy: a)
            _ = try await late.store.add(drink(minute: 5, note: "from the late machine"))
            try await late.sync()
            let report = try await a.sync()
            #expect(report.received == 1 && report.waiting.isEmpty, "\(report)")
            #expect(report.setAside.filter { $0.name == "card" }.count + report.moreSetAside == 1000)
            try await late.sync()
            try await a.sync()
            #expect(try await a.engine.rotateKey().reaches.contains(late.store.deviceID))
            for machine in [a, late] { await machine.engine.close() }
        }
    }

    /// Finding 7: a member names a card after another device's id as `sync devices` shows it, and gives
    /// two devices one name: `revoke` with either refuses, listing the candidates, and never acts on
    /// the wrong machine.
    @Test func aNameThatReadsAsAnIdOrIsTakenNeverPicksTheWrongDevice() async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, _, _) = try await KeyEpochTests.threeMachines(folder, .folder)
            try await b.engine.rename(to: DeviceName("old laptop"))
            try await a.sync()
            try await c.sync()
            // Names that look the same on a terminal are one name: taken.
            for lookalike in ["OLD LAPTOP", "ｏｌｄ ｌａｐｔｏｐ", "\u{43E}ld laptop", "old  laptop"] {
                await #expect(throws: SyncError.self, "\(lookalike)") { try await c.engine.rename(to: DeviceName(lookalike)) }
            }
            let hub = c.engine.hub
            let (epoch, key) = try await c.engine.sealingKey()
            let shown = String(b.store.deviceID.rawValue.prefix(8))
            let impostor = Forger()
            try await hub.writeCard(try impostor.card(name: shown, epoch: epoch, key: key, hubID: hub.id), of: impostor.device)
            // A member's made-up device takes the name with a Cyrillic о.
            let twin = Forger()
            try await hub.writeCard(try twin.card(name: "\u{43E}ld laptop", epoch: epoch, key: key, hubID: hub.id), of: twin.device)
            let report = try await a.sync()
            #expect(report.setAside.contains { $0.device == impostor.device && $0.reason.contains("name") }, "\(report)")
            #expect(try await a.engine.device(named: shown) == b.store.deviceID)
            for typed in ["old laptop", "ｏｌｄ ｌａｐｔｏｐ"] {
                await #expect {
                    try await a.engine.device(named: typed)
                } throws: { error in
                    guard case SyncError.ambiguousDevice(_, let candidates)? = error as? SyncError else { return false }
                    return Set(candidates.map(\.id)) == [b.store.deviceID, twin.device]
                }
            }
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// Finding 10: B applied what C published a moment before A revoked C without having applied it;
    /// B keeps it, and says so, rather than "this journal and the hub agree".
    @Test(arguments: HubFlavor.allCases)
    func aDeviceThatKeptARevokedMachinesChangesSaysSo(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, _, _) = try await KeyEpochTests.threeMachines(folder, flavor)
            _ = try await c.store.add(drink(minute: 30, note: "published as it was revoked"))
            try await c.sync()
            try await b.sync()
            let through = try #require(try await b.store.anchors(hubID: b.engine.hub.id)[c.store.deviceID])
            try await a.engine.rotateKey(revoking: [c.store.deviceID])
            let report = try await b.sync()
            #expect(report.setAside.contains { $0.device == c.store.deviceID && $0.name == "kept" }, "\(report)")
            #expect(!report.summary.contains("agree"), "\(report.summary)")
            let kept = try await b.engine.keptFromShutOut()
            #expect(kept.map(\.through) == [through] && kept.first?.sentence.contains("after") == true)
            #expect(try await b.sync().setAside.isEmpty)
            #expect(try await a.engine.keptFromShutOut().isEmpty)
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// A device updated from a journal before signing: its unsigned history (positions 1-2, sealed under
    /// the first key), then signed segments. Once the hub's key changed, a device that joins later takes
    /// that history only as far as a record vouches for it: all of it when the record was made by a
    /// member that had read it; none when the record vouches for nothing (as an earlier journal's do),
    /// passed over and said, and its signed segments all the same.
    @Test(arguments: [true, false])
    func unsignedHistoryIsTakenAsFarAsARecordVouchesForIt(_ vouched: Bool) async throws {
        try await withTemporaryDirectory { folder in
            let place = try HubFlavor.folder.newPlace(in: folder)
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", place: place, key: key)
            try await a.sync()
            let hub = a.engine.hub
            // The updated device: a card saying it signs from position 3, unsigned history before.
            let old = Forger()
            var card = DeviceCardTests.card(old.device, keys: old.keys, name: "old desk", at: 1_795_262_400_000)
            card.signedFrom = 3
            try await hub.writeCard(try CardSeal.seal(card, keys: old.keys, epoch: .first, key: key, hubID: hub.id), of: old.device)
            let history = Self.listing(["\"\(UUIDText.random())\", \"espresso\", 64, 1795200000000, \"from before signing\", 0"], origin: old.device)
            let first = SegmentName(first: 1, last: 2)
            _ = try await hub.write(try SegmentSeal.sealUnsigned(Array(history.utf8), format: 2, key: key, device: old.device, name: first), as: first, of: old.device)
            try await a.sync()
            #expect(try await a.store.drinks().contains { $0.note == "from before signing" })
            // The new key goes to the updated device too: a person keeps it, or a record wraps it.
            if vouched {
                try await a.engine.rotateKey(keeping: [old.device])
            } else {
                let (epoch, current) = try await a.engine.sealingKey()
                let made = try EpochRecord.make(
                    parent: epoch, parentKey: current, members: [a.store.deviceID: a.engine.deviceKeys.publicKeys, old.device: old.keys.publicKeys],
                    revoked: [],
                    maker: a.engine.deviceKeys, makerID: a.store.deviceID, at: sameInstant.now(), hubID: hub.id)
                try await hub.writeEpochRecord(made.sealed, as: made.record.epoch)
            }
            try await a.sync()
            let (epoch, current) = try await a.engine.sealingKey()
            let signed = SegmentName(first: 3, last: 3)
            _ = try await hub.write(
                try old.segment(["\"\(UUIDText.random())\", \"black-tea\", 47, 1795200000000, \"signed\", 0"], name: signed, epoch: epoch, key: current, hubID: hub.id),
                as: signed, of: old.device)
            let late = try await Machine.make(folder, name: "late", place: place, key: await a.engine.key, invitedBy: a)
            let report = try await late.sync()
            let notes = Set(try await late.store.drinks().compactMap(\.note))
            #expect(notes.contains("signed"), "\(report)")
            #expect(notes.contains("from before signing") == vouched, "\(report)")
            #expect(report.setAside.contains { $0.device == old.device && $0.name == first.fileName } != vouched, "\(report)")
            #expect(report.failures.isEmpty, "\(report)")
            for machine in [a, late] { await machine.engine.close() }
        }
    }
    /// B had not synced since C published its last drink when A, who had read it, revoked C: B takes
    /// C's log as far as the revocation says (all A had of it), and ends with what A has.
    @Test(arguments: HubFlavor.allCases)
    func aDeviceThatLaggedTakesARevokedLogAsFarAsTheRevocationSays(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, _, _) = try await KeyEpochTests.threeMachines(folder, flavor)
            _ = try await c.store.add(drink(minute: 40, note: "published before the revocation"))
            try await c.sync()
            try await a.sync()
            try await a.engine.rotateKey(revoking: [c.store.deviceID])
            let report = try await b.sync()
            #expect(try await b.store.drinks().contains { $0.note == "published before the revocation" }, "\(report)")
            #expect(try await b.state() == (try await a.state()))
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }

    /// Someone who can write the hub's files but holds no key puts junk that starts as an unsigned
    /// segment does ("JSEG", format 2) in the log of a device from an earlier release, reaching far past
    /// its last position. It opens nowhere and is said; it does not carry the log's reading past the
    /// device's own later segments, which arrive once it signs.
    @Test(arguments: HubFlavor.allCases)
    func junkLikeAnUnsignedSegmentHidesNothingOfItsDevice(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let place = try flavor.newPlace(in: folder)
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", place: place, key: key)
            try await a.sync()
            let hub = a.engine.hub
            // A device of an earlier release: a card that signs nothing, one unsigned segment.
            let old = Forger()
            var card = DeviceCardTests.card(old.device, keys: old.keys, name: "old desk", at: 1_795_262_400_000)
            try await hub.writeCard(try CardSeal.seal(card, keys: old.keys, epoch: .first, key: key, hubID: hub.id), of: old.device)
            let history = Self.listing(["\"\(UUIDText.random())\", \"espresso\", 64, 1795200000000, \"unsigned\", 0"], origin: old.device)
            let first = SegmentName(first: 1, last: 1)
            _ = try await hub.write(try SegmentSeal.sealUnsigned(Array(history.utf8), format: 2, key: key, device: old.device, name: first), as: first, of: old.device)
            try await a.sync()
            try await a.engine.rotateKey(keeping: [old.device])
            try await a.sync()

            let junk = SegmentName(first: 2, last: 1_000_000)
            _ = try await hub.write(SegmentSeal.magic + [2] + (0..<64).map { _ in UInt8.random(in: 0...255) }, as: junk, of: old.device)
            let report = try await a.sync()
            #expect(report.failures.contains { $0.device == old.device && $0.segment == junk.fileName }, "\(report)")
            #expect(try await a.store.anchors(hubID: hub.id)[old.device] == 1)

            // The device updates, and signs from position 2 on.
            let (epoch, current) = try await a.engine.sealingKey()
            card.signedFrom = 2
            card.writtenAt = Timestamp(milliseconds: card.writtenAt.milliseconds + 1)
            try await hub.writeCard(try CardSeal.seal(card, keys: old.keys, epoch: epoch, key: current, hubID: hub.id), of: old.device)
            let signed = SegmentName(first: 2, last: 2)
            _ = try await hub.write(
                try old.segment(["\"\(UUIDText.random())\", \"black-tea\", 47, 1795200000000, \"signed after the junk\", 0"], name: signed, epoch: epoch, key: current, hubID: hub.id),
                as: signed, of: old.device)
            let after = try await a.sync()
            #expect(try await a.store.drinks().contains { $0.note == "signed after the junk" }, "\(after)")
            await a.engine.close()
        }
    }

    /// A revoked machine makes record after record with the key it kept, each signed and proved as
    /// a member's was once: a few are kept, as any record is, the rest said once and not kept, and
    /// nothing changes for the members.
    @Test(arguments: HubFlavor.allCases)
    func aRevokedMachinesManyRecordsAreNotAllKept(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c, firstKey, _) = try await KeyEpochTests.threeMachines(folder, flavor)
            try await a.engine.rotateKey(revoking: [c.store.deviceID])
            try await b.sync()
            let before = try await a.state()
            let hub = c.engine.hub
            for index in 0..<(SyncEngine.recordsOfRevoked + 36) {
                let made = try EpochRecord.make(
                    parent: .first, parentKey: firstKey, members: [c.store.deviceID: c.engine.deviceKeys.publicKeys], revoked: [],
                    maker: c.engine.deviceKeys, makerID: c.store.deviceID, at: Timestamp(milliseconds: 1_795_262_400_000 + Int64(index)),
                    hubID: hub.id)
                try await hub.writeEpochRecord(made.sealed, as: made.record.epoch)
            }
            let report = try await a.sync()
            #expect(try await a.state() == before)
            #expect(report.setAside.count + report.moreSetAside >= 36, "\(report)")
            #expect(try await a.store.epochRecordBytes(hubID: hub.id).count <= 2 + SyncEngine.recordsOfRevoked)
            let again = try await a.sync()
            #expect(again.setAside.isEmpty, "\(again)")
            #expect(try await a.engine.rotateKey().reaches.contains(b.store.deviceID))
            for machine in [a, b, c] { await machine.engine.close() }
        }
    }
}
