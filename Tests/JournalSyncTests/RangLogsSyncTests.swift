import Foundation
import JournalKit
import Testing
import TestSupport

@testable import JournalSync

/// A sync woken by a ring that named a log reads that log alone (`SyncScope.logs`); the name is a
/// hint, so a forged, stale or lost one costs a read and loses nothing.
@Suite(.onTestThreads) struct RangLogsSyncTests {
    /// Three machines on one hub, each synced whole once: A and C each then publish a drink.
    private static func hubWithTwoNewDrinks(_ flavor: HubFlavor, in folder: String, place: (any HubPlace)? = nil) async throws
        -> (a: Machine, b: Machine, c: Machine)
    {
        let key = SyncKey()
        let place = try place ?? flavor.newPlace(in: folder)
        let a = try await Machine.make(folder, name: "a", place: place, key: key)
        let b = try await Machine.make(folder, name: "b", place: place, key: key, invitedBy: a)
        let c = try await Machine.make(folder, name: "c", place: place, key: key, invitedBy: a)
        for machine in [a, b, c, a, b, c] { try await machine.sync() }
        _ = try await a.store.add(drink(note: "from a"))
        _ = try await c.store.add(drink(note: "from c"))
        try await a.sync()
        try await c.sync()
        return (a, b, c)
    }

    private static func notes(_ machine: Machine) async throws -> Set<String> {
        Set(try await machine.state().compactMap(\.drink.note))
    }

    @Test(arguments: HubFlavor.allCases)
    func aRingThatNamesALogReadsThatLogAlone(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c) = try await Self.hubWithTwoNewDrinks(flavor, in: folder)
            let rang = try await b.engine.sync(.logs([a.store.deviceID]))
            #expect(rang.received == 1 && rang.devicesHeardFrom == [a.store.deviceID])
            #expect(try await Self.notes(b) == ["from a"])
            // The tick's whole sync reads the rest.
            let tick = try await b.engine.sync(.whole)
            #expect(tick.devicesHeardFrom == [c.store.deviceID])
            #expect(try await Self.notes(b) == ["from a", "from c"])
            await a.engine.close()
            await b.engine.close()
            await c.engine.close()
        }
    }

    @Test(arguments: HubFlavor.allCases)
    func aForgedOrLostRingCostsAReadAndLosesNothing(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c) = try await Self.hubWithTwoNewDrinks(flavor, in: folder)
            // Rings naming a device that never published, this device itself, and a log with nothing new
            // past what B applied: each reads nothing, fails nothing, and applies nothing.
            let stranger = DeviceID(rawValue: UUIDText.random())
            for named in [stranger, b.store.deviceID] {
                let report = try await b.engine.sync(.logs([named]))
                #expect(report == { var empty = SyncReport(); empty.at = report.at; return empty }())
            }
            #expect(try await Self.notes(b).isEmpty)
            // C's ring was lost, A's came: what C published is read by the next whole sync, not lost.
            _ = try await b.engine.sync(.logs([a.store.deviceID]))
            let again = try await b.engine.sync(.logs([a.store.deviceID]))
            #expect(again.received == 0 && again.failures.isEmpty)
            #expect(try await Self.notes(b) == ["from a"])
            _ = try await b.engine.sync(.whole)
            #expect(try await Self.notes(b) == ["from a", "from c"])
            await a.engine.close()
            await b.engine.close()
            await c.engine.close()
        }
    }

    @Test(arguments: HubFlavor.allCases)
    func whatALogOnlyReadCannotSettleMakesTheSyncWhole(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let place = try flavor.newPlace(in: folder)
            let (a, b, c) = try await Self.hubWithTwoNewDrinks(flavor, in: folder, place: place)
            // A fresh engine knows no card or key epoch yet: its first sync is whole whatever rang.
            let fresh = SyncEngine(store: b.store, hub: b.engine.hub, key: await b.engine.key, deviceKeys: b.engine.deviceKeys)
            let first = try await fresh.sync(.logs([a.store.deviceID]))
            #expect(first.devicesHeardFrom == [a.store.deviceID, c.store.deviceID])
            // D joined after B's last whole sync: B has no card of it, so D's ring makes the sync whole,
            // which reads D's card first and then applies what D signed.
            let d = try await Machine.make(folder, name: "d", place: place, key: await b.engine.key, invitedBy: a)
            _ = try await d.store.add(drink(note: "from d"))
            try await d.sync()
            try await a.sync()
            let rang = try await fresh.sync(.logs([d.store.deviceID]))
            #expect(rang.devicesHeardFrom == [d.store.deviceID] && rang.failures.isEmpty && rang.waiting.isEmpty)
            #expect(try await Self.notes(b) == ["from a", "from c", "from d"])
            for engine in [a.engine, b.engine, c.engine, d.engine, fresh] { await engine.close() }
        }
    }

    /// What a log-only read finds and settles for good before it goes whole (a server's log no member
    /// wrote, refused through its last row) is said by that sync, not lost to it: the whole sync that
    /// follows reads the log past the refusal and finds nothing to say.
    @Test(arguments: HubFlavor.allCases)
    func whatALogOnlyReadFindsIsSaidWhenTheSyncGoesWhole(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let (a, b, c) = try await Self.hubWithTwoNewDrinks(flavor, in: folder)
            // Rows under an id no member has, written by anyone with the right to write the hub; the
            // insert rings with that id.
            let stranger = DeviceID(rawValue: UUIDText.random())
            _ = try await a.engine.hub.write(Array(repeating: 0x41, count: 300), as: SegmentName(first: 1, last: 1), of: stranger)
            let report = try await b.engine.sync(.logs([stranger]))
            if b.engine.hub.segmentsNeverChange {
                #expect(report.failures.isEmpty && report.setAside.map(\.device) == [stranger], "\(report)")
                #expect(report.setAside.count == 1, "\(report.setAside)")
                let again = try await b.engine.sync(.logs([stranger]))
                #expect(again.failures.isEmpty && again.setAside.isEmpty, "\(again)")
            } else {
                // A file may still be mended: a failure, tried again at every sync.
                #expect(report.failures.map(\.device) == [stranger], "\(report)")
            }
            // The sync went whole: the other logs were read too.
            #expect(try await Self.notes(b) == ["from a", "from c"])
            for engine in [a.engine, b.engine, c.engine] { await engine.close() }
        }
    }
}
