import Foundation
import JournalKit
import Testing
import TestSupport

@testable import JournalSync

/// Who vouches for whom, as a member that makes devices up, or one left out, would test it: a vouch
/// is given only to a device that joined with this device's invitation, or that a person keeps; one
/// given by a device being revoked counts for nothing. On both kinds of hub, with real journals.
@Suite(.onTestThreads) struct VouchingTests {
    typealias Forger = RevocationHoldsTests.Forger

    static func vouch(of machine: Machine) -> DeviceCard.Vouch {
        DeviceCard.Vouch(device: machine.store.deviceID, signingKey: machine.engine.deviceKeys.publicKeys.signing)
    }

    /// A member makes a device up whose card vouches for every other member, and vouches for it. No
    /// member vouches for it back, so revoking the member that made it leaves it out too.
    @Test(arguments: HubFlavor.allCases)
    func aMadeUpDeviceThatVouchesForMembersIsNotVouchedBack(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, m, _, _) = try await KeyEpochTests.threeMachines(folder, flavor)
            let hub = m.engine.hub
            let (epoch, key) = try await m.engine.sealingKey()
            let fake = Forger()
            try await hub.writeCard(
                try fake.card(epoch: epoch, key: key, hubID: hub.id, vouches: [a, b].map(Self.vouch(of:))), of: fake.device)
            var own = try #require(try await m.store.deviceCard(of: m.store.deviceID, hubID: hub.id))
            own.vouches = (own.vouches ?? []) + [fake.vouch]
            own.writtenAt = Timestamp(milliseconds: own.writtenAt.milliseconds + 1)
            try await hub.writeCard(try CardSeal.seal(own, keys: m.engine.deviceKeys, epoch: epoch, key: key, hubID: hub.id), of: m.store.deviceID)
            for _ in 0..<2 { for machine in [a, b] { try await machine.sync() } }
            for machine in [a, b] {
                let card = try #require(try await machine.store.deviceCard(of: machine.store.deviceID, hubID: hub.id))
                #expect(!(card.vouches ?? []).contains { $0.device == fake.device }, "\(card)")
            }

            let revocation = try await a.engine.newEpoch(revoking: [m.store.deviceID])
            #expect(Set(revocation.record.reaches) == Set([a, b].map(\.store.deviceID)))
            #expect(revocation.leftOut.contains { $0.device == fake.device && $0.reason == .vouchedOnlyByRevoked }, "\(revocation.leftOut)")
            try await b.sync()
            #expect(await b.engine.standing(of: fake.device) == .outside)
            for machine in [a, b, m] { await machine.engine.close() }
        }
    }

    /// A invited L, and L invited P and T: each vouches for the device whose invitation it joined with
    /// and for those that joined with its own, so every path between them runs through L. P revokes L:
    /// the new key goes to P alone, and A and T are left out and said to be so because only L vouched
    /// for them (it may have made them up). P keeps them, and they read what P writes after.
    @Test(arguments: HubFlavor.allCases)
    func revokingTheOneWhoInvitedLeavesOutWhomOnlyItVouchedFor(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (place, _) = try flavor.newPlaceAndDatabase(in: folder)
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", place: place, key: key)
            let l = try await Machine.make(folder, name: "l", place: place, key: key, invitedBy: a)
            let p = try await Machine.make(folder, name: "p", place: place, key: key, invitedBy: l)
            let t = try await Machine.make(folder, name: "t", place: place, key: key, invitedBy: l)
            for _ in 0..<2 { for machine in [a, l, p, t] { try await machine.sync() } }

            let revocation = try await p.engine.newEpoch(revoking: [l.store.deviceID])
            #expect(revocation.record.reaches == [p.store.deviceID])
            #expect(
                Set(revocation.leftOut.filter { $0.reason == .vouchedOnlyByRevoked }.map(\.device)) == Set([a, t].map(\.store.deviceID)),
                "\(revocation.leftOut)")
            try await p.sync()

            let kept = try await p.engine.rotateKey(keeping: [a, t].map(\.store.deviceID))
            #expect(Set(kept.reaches) == Set([a, p, t].map(\.store.deviceID)))
            _ = try await p.store.add(drink(minute: 50, note: "after L was revoked"))
            try await p.sync()
            for machine in [a, t] {
                try await machine.sync()
                #expect(try await machine.store.drinks().contains { $0.note == "after L was revoked" })
            }
            for machine in [a, l, p, t] { await machine.engine.close() }
        }
    }

    /// A member makes a key only it holds (withholding it from everyone else). The others can still
    /// revoke it: that it withheld the key is the reason to, not a bar to doing so.
    @Test(arguments: HubFlavor.allCases)
    func aMemberThatKeepsANewKeyToItselfCanBeRevoked(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, m, _, _) = try await KeyEpochTests.threeMachines(folder, flavor)
            let hub = m.engine.hub
            let (epoch, key) = try await m.engine.sealingKey()
            let own = try EpochRecord.make(
                parent: epoch, parentKey: key, members: [m.store.deviceID: m.engine.deviceKeys.publicKeys], revoked: [],
                maker: m.engine.deviceKeys, makerID: m.store.deviceID, at: sameInstant.now(), hubID: hub.id)
            try await hub.writeEpochRecord(own.sealed, as: own.record.epoch)
            _ = try? await a.sync()

            let revocation = try await a.engine.rotateKey(revoking: [m.store.deviceID])
            #expect(Set(revocation.reaches) == Set([a, b].map(\.store.deviceID)))
            _ = try await a.store.add(drink(minute: 50, note: "after M was revoked"))
            try await a.sync()
            try await b.sync()
            #expect(try await b.store.drinks().contains { $0.note == "after M was revoked" })
            #expect(await b.engine.standing(of: m.store.deviceID) == .outside)
            for machine in [a, b, m] { await machine.engine.close() }
        }
    }

    /// A device that joined with the key alone is left out of a rotation; a person who knows it keeps
    /// it with the next one. It takes that key up, though it never held the one in between.
    @Test(arguments: HubFlavor.allCases)
    func aDeviceLeftOutOnceIsReachedWhenAPersonKeepsIt(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (machines, key, place) = try await KeyEpochTests.machines(["a", "b"], folder, flavor)
            let (a, b) = (machines[0], machines[1])
            let d = try await Machine.make(folder, name: "d", place: place, key: key)
            try await d.sync()
            try await a.sync()
            let first = try await a.engine.newEpoch()
            #expect(first.leftOut.contains { $0.device == d.store.deviceID && $0.reason == .unvouched }, "\(first.leftOut)")
            try await a.sync()
            await #expect(throws: SyncError.self) { try await d.sync() }

            let kept = try await a.engine.rotateKey(keeping: [d.store.deviceID])
            #expect(kept.reaches.contains(d.store.deviceID))
            _ = try await a.store.add(drink(minute: 50, note: "after d was kept"))
            try await a.sync()
            let report = try await d.sync()
            #expect(try await d.store.drinks().contains { $0.note == "after d was kept" }, "\(report)")
            #expect(try await d.engine.sealingKey().0 == kept.epoch)
            for machine in [a, b, d] { await machine.engine.close() }
        }
    }
}
