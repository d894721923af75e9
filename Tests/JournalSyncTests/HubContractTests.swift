import Foundation
import JournalKit
import PropertyBased
import Testing
import TestSupport

@testable import JournalSync

/// What every hub promises the engine, run against each kind of hub: segments are append-only and
/// whole, logs list in order, a gap holds its device back without losing anything, a damaged segment
/// fails alone, and any order of writes and syncs converges.
@Suite(.onTestThreads) struct HubContractTests {
    @Test(arguments: HubFlavor.allCases)
    func aSegmentIsWrittenOnceAndNeverChanges(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let hub = try await flavor.newPlace(in: folder).make(key: SyncKey(), shared: false)
            let device = DeviceID(rawValue: UUIDText.random())
            let name = SegmentName(first: 1, last: 3)
            let first = Array(repeating: UInt8(7), count: 3 * 1024 * 1024 + 17)
            _ = try await hub.write(first, as: name, of: device)
            let taken = await #expect(throws: SyncError.self) { _ = try await hub.write([1, 2, 3], as: name, of: device) }
            // Told by its condition, with the transport's own code: the file system's EEXIST, the server's
            // unique_violation.
            guard case .hub(let failure)? = taken else { Issue.record("not a hub's failure: \(String(describing: taken))"); return }
            #expect(failure.condition == .nameTaken)
            #expect(failure.code == flavor.nameTakenCode)
            #expect(failure.description == "segment \(name.fileName) is already on the hub; another copy of this journal wrote it.")
            try await hub.refresh(after: [:])
            #expect(try await hub.log(of: device).names == [name])
            #expect(try await hub.read(name, of: device) == first)
            await hub.close()
        }
    }

    /// A card or key epoch record asked for that is not there (replaced, set aside or removed since
    /// it was listed) is left out, not refused: a refusal is remembered against what the record was
    /// listed as, and said to the person as a record the hub holds.
    @Test(arguments: HubFlavor.allCases)
    func aRecordGoneSinceItWasListedIsLeftOut(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let hub = try await flavor.newPlace(in: folder).make(key: SyncKey(), shared: false)
            let (device, gone) = (DeviceID(rawValue: UUIDText.random()), DeviceID(rawValue: UUIDText.random()))
            try await hub.writeCard(Array("a card".utf8), of: device)
            let cards = try await hub.cards(of: [gone, device])
            #expect(Array(cards.keys) == [device])
            #expect(try cards[device]?.get() == Array("a card".utf8))
            let epoch = KeyEpoch(number: 1, id: (0..<16).map { _ in UInt8.random(in: 0...255) })
            let absent = KeyEpoch(number: 2, id: (0..<16).map { _ in UInt8.random(in: 0...255) })
            try await hub.writeEpochRecord(Array("a record".utf8), as: epoch)
            let records = try await hub.epochRecords([absent, epoch])
            #expect(Array(records.keys) == [epoch])
            #expect(try records[epoch]?.get() == Array("a record".utf8))
            await hub.close()
        }
    }

    @Test(arguments: HubFlavor.allCases)
    func logsListInOrderWhateverTheOrderOfWriting(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let hub = try await flavor.newPlace(in: folder).make(key: SyncKey(), shared: false)
            let devices = (0..<3).map { _ in DeviceID(rawValue: UUIDText.random()) }
            let names = [SegmentName(first: 7, last: 9), SegmentName(first: 1, last: 2), SegmentName(first: 3, last: 6)]
            for device in devices.reversed() {
                for name in names { _ = try await hub.write(Array("\(device) \(name)".utf8), as: name, of: device) }
            }
            try await hub.refresh(after: [:])
            #expect(try await hub.devices() == devices.sorted())
            for device in devices {
                #expect(try await hub.log(of: device).names == names.sorted())
                for name in names { #expect(try await hub.read(name, of: device) == Array("\(device) \(name)".utf8)) }
            }
            await hub.close()
        }
    }

    @Test(arguments: HubFlavor.allCases)
    func aGapHoldsItsDeviceBackUntilItIsFilled(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let place = try flavor.newPlace(in: folder)
            let c = try await Machine.make(folder, name: "c", place: place, key: key)
            // A's segments are held back, then brought to the hub out of order.
            let a = try await Machine.make(folder, name: "a", place: place, key: key, segmentSize: 2)
            let withholding = WithholdingHub(base: a.engine.hub)
            let staging = SyncEngine(store: a.store, hub: withholding, key: key, deviceKeys: a.engine.deviceKeys, segmentSize: 2)
            for minute in 0..<6 { _ = try await a.store.add(drink(minute: Int64(minute))) }
            _ = try await staging.sync()
            let staged = withholding.names
            #expect(staged.count == 3)
            for index in [0, 2] { try await withholding.deliver(staged[index]) }
            let early = try await c.sync()
            #expect(early.received == 2 && early.failures.isEmpty)
            #expect(early.waiting.map { [$0.first, $0.last] } == [[3, 4]])
            try await withholding.deliver(staged[1])
            let late = try await c.sync()
            #expect(late.received == 4 && late.waiting.isEmpty)
            #expect(try await c.state() == a.state())
            await a.engine.close()
            await c.engine.close()
        }
    }

    @Test(arguments: HubFlavor.allCases)
    func aDamagedSegmentFailsAloneAndTheRestApplies(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let place = try flavor.newPlace(in: folder)
            let a = try await Machine.make(folder, name: "a", place: place, key: key)
            let b = try await Machine.make(folder, name: "b", place: place, key: key)
            _ = try await a.store.add(drink(note: "kept"))
            try await a.sync()
            // A device that writes garbage after its good segment: someone with write access to the hub.
            let stranger = DeviceID(rawValue: UUIDText.random())
            _ = try await a.engine.hub.write(Array(repeating: 0x41, count: 300), as: SegmentName(first: 1, last: 1), of: stranger)
            let report = try await b.sync()
            #expect(report.received == 1)
            if a.engine.hub.segmentsNeverChange {
                // A server's row never changes: under an id no member has, it is passed over once, for good.
                #expect(report.failures.isEmpty && report.setAside.map(\.device) == [stranger], "\(report)")
                let again = try await b.sync()
                #expect(again.failures.isEmpty && again.setAside.isEmpty, "\(again)")
            } else {
                // A file may still be mended (a sync tool copying it): tried again at every sync.
                #expect(report.failures.map(\.device) == [stranger])
            }
            #expect(try await b.state() == a.state())
            await a.engine.close()
            await b.engine.close()
        }
    }

    /// A member holding the hub's key writes into another device's log, signing with its own keys: a
    /// segment reaching past the device's own, and one at the device's next position. Each is refused
    /// alone, by its signature, on every kind of hub; the device's own segments still apply, before
    /// and after.
    @Test(arguments: HubFlavor.allCases)
    func aSegmentSignedByAnotherDeviceIsRefusedAlone(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let place = try flavor.newPlace(in: folder)
            let a = try await Machine.make(folder, name: "a", place: place, key: key)
            let b = try await Machine.make(folder, name: "b", place: place, key: key)
            _ = try await a.store.add(drink(note: "first"))
            try await a.sync()
            let hub = a.engine.hub
            let victim = a.store.deviceID
            for name in [SegmentName(first: 1, last: 5), SegmentName(first: 2, last: 2)] {
                let forged = try SegmentSeal.seal(
                    SegmentCodec.encode([], device: victim).bytes, format: SegmentSeal.signedFormat, epoch: .first, key: key, signer: DeviceKeys(), hubID: hub.id, device: victim, name: name)
                _ = try await hub.write(forged, as: name, of: victim)
            }
            let report = try await b.sync()
            #expect(report.received == 1)
            let refused = (report.failures + report.skipped).filter { $0.device == victim }
            #expect(Set(refused.map(\.segment)) == ["000000000001-000000000005.seg", "000000000002-000000000002.seg"], "\(report)")
            #expect(refused.allSatisfy { $0.reason.contains("its signature does not verify") })
            // The device's own next change goes up under a longer range, past the forged one, and arrives.
            _ = try await a.store.add(drink(note: "second"))
            _ = try await a.store.add(drink(note: "third"))
            try await a.sync()
            #expect(try await b.sync().received == 2)
            #expect(try await b.state() == a.state())
            await a.engine.close()
            await b.engine.close()
        }
    }

    @Test(arguments: HubFlavor.allCases)
    func theHubHoldsNoDrinkNoteOrKeyInPlainText(_ flavor: HubFlavor) async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let (place, storage) = try flavor.newPlaceAndDatabase(in: folder)
            let a = try await Machine.make(folder, name: "a", place: place, key: key)
            _ = try await a.store.add(drink("flat-white", note: "secret-rendezvous-note"))
            try await a.sync()
            await a.engine.close()
            let everything: String
            switch flavor {
            case .folder:
                everything = snapshot(folder + "/hub").values.map { String(decoding: $0, as: UTF8.self) }.joined()
            case .postgres:
                let database = try #require(place.location.split(separator: "?").first?.split(separator: "/").last.map(String.init))
                let dump = try ProcessRunner.run(
                    "/usr/bin/pg_dump", ["-h", PostgresServer.shared.folder, "-p", String(PostgresServer.shared.port), "-U", "postgres", database],
                    environment: ["PGPASSWORD": "fixture-superuser"])
                #expect(dump.status == 0, "\(dump.stderr)")
                #expect(dump.stdout.contains("journal_hub.segments"))
                everything = dump.stdout
            case .apache, .nginx:
                everything = snapshot(try #require(storage)).values.map { String(decoding: $0, as: UTF8.self) }.joined()
            case .s3:
                let parts = try #require(storage).split(separator: "/", maxSplits: 1).map(String.init)
                let server = S3Server.serving(parts[0])
                everything = try server.keys(bucket: parts[0]).map { key in
                    try server.curl([server.url("/\(parts[0])/\(key)")]).body
                }.joined()
            }
            // pg_dump writes a bytea column as hex (`\\x4a534547...`): a secret kept in a segment is
            // looked for as text and as the hex of its bytes.
            for secret in ["flat-white", "secret-rendezvous-note", key.hex, "espresso"] {
                #expect(!everything.contains(secret), "\(secret) is on the hub in plain text")
                #expect(!everything.contains(Hex.encode(secret.utf8)), "\(secret) is on the hub in plain text, as hex")
            }
        }
    }

    /// Any interleaving of writes and syncs on three machines ends, after everyone has synced twice,
    /// with identical journals, whatever the hub.
    @Test(arguments: HubFlavor.allCases)
    func anySyncOrderConverges(_ flavor: HubFlavor) async throws {
        await checkProperty(count: flavor == .folder ? 25 : 10, input: steps) { history in
            try await withTemporaryDirectory { folder in
                let key = SyncKey()
                let place = try flavor.newPlace(in: folder)
                var machines: [Machine] = []
                for index in 0..<3 {
                    machines.append(try await Machine.make(folder, name: "m\(index)", place: place, key: key, segmentSize: 3))
                }
                for step in history {
                    if (7...9).contains(step.action) {
                        // As a daemon syncs: whole, or the logs a ring named.
                        let machine = machines[step.replica]
                        try await machine.sync(try await machine.scope(pick: step.action, other: machines[step.other]))
                    } else {
                        try await ConvergenceTests.write(step, on: machines[step.replica].store)
                    }
                }
                for _ in 0..<2 { for machine in machines { try await machine.sync() } }
                let states = try await machines.asyncMap { try await $0.state() }
                let kinds = try await machines.asyncMap { try await $0.kinds() }
                #expect(states[0] == states[1] && states[1] == states[2], "history \(history)")
                #expect(kinds[0] == kinds[1] && kinds[1] == kinds[2], "history \(history)")
                for machine in machines { await machine.engine.close() }
            }
        }
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
