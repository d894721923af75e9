import Foundation
import JournalKit
import Testing
import TestSupport

@testable import JournalSync

/// A segment is in the lowest format that carries its records: a drink name beyond ASCII takes
/// format 4, which a journal from before names in any script refuses by its number and waits on,
/// instead of refusing the record and passing it over for good; everything else stays format 3.
@Suite(.onTestThreads) struct SegmentFormatTests {
    @Test func aNameBeyondASCIIIsCarriedInFormat4AndOnlyThere() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            _ = try await a.store.add(drink(minute: 1))
            try await a.sync()
            #expect(try await Self.formats(of: a) == [3])
            _ = try await a.store.defineDrink(named: "抹茶ラテ", caffeineMg: 70)
            _ = try await a.store.add(drink("抹茶ラテ", mg: 70, minute: 2))
            try await a.sync()
            _ = try await a.store.add(drink(minute: 3))
            try await a.sync()

            // Small segments are merged as the log grows: the one holding the name is format 4, the last 3.
            let formats = try await Self.formats(of: a)
            #expect(formats.contains(4) && formats.last == 3, "\(formats)")
            #expect(try await b.sync().received == 4)
            #expect(try await b.kinds() == a.kinds())
            #expect(try await b.state() == a.state())
            for machine in [a, b] { await machine.engine.close() }
        }
    }

    /// A night, and a slow drink of one's own, take format 5; a drink of one's own that is a beverage
    /// is written as before forms were, in format 3. Each arrives as it was written.
    @Test func nightsAndSlowDrinksAreCarriedInFormat5() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            _ = try await a.store.defineDrink(named: "oat-latte", caffeineMg: 130)
            try await a.sync()
            #expect(try await Self.formats(of: a) == [3])
            _ = try await a.store.defineDrink(named: "cocoa", caffeineMg: 12, form: .slow)
            try await a.sync()
            _ = try await a.store.importNights([night(1, 0)])
            try await a.sync()
            let formats = try await Self.formats(of: a)
            // Small segments are merged as the log grows: what holds the slow drink or the night is format 5.
            #expect(formats.contains(5), "\(formats)")
            _ = try await b.sync()
            #expect(try await b.kinds() == a.kinds())
            #expect(try await b.store.catalog().kind(named: "cocoa")?.form == .slow)
            #expect(try await b.store.nights() == [night(1, 0)])
            for machine in [a, b] { await machine.engine.close() }
        }
    }

    /// A record of a drink of one's own reads in both shapes, and a form it does not know is refused.
    @Test func aDrinkOfOnesOwnReadsWithAndWithoutItsForm() throws {
        func decode(_ json: String) throws -> Replicated<CustomDrink> {
            try JSONDecoder().decode(Replicated<CustomDrink>.self, from: Data(json.utf8))
        }
        let origin = "0f0e0d0c-0b0a-4908-8706-050403020100", clock = "\(1_795_262_400_000 << 16)"
        #expect(try decode("[\"mate\", 80, 0, \"\(clock)\", \"\(origin)\"]").payload.form == .beverage)
        #expect(try decode("[\"mate\", 80, \"slow\", 0, \"\(clock)\", \"\(origin)\"]").payload.form == .slow)
        #expect(throws: InvalidRecordError.self) { try decode("[\"mate\", 80, \"fizzy\", 0, \"\(clock)\", \"\(origin)\"]") }
        let written = try JSONEncoder().encode(Replicated(payload: CustomDrink(name: "mate", caffeineMg: 80), isDeleted: false,
            clock: HybridTimestamp(rawValue: 1_795_262_400_000 << 16), origin: DeviceID(rawValue: origin), sequence: 1))
        #expect(String(decoding: written, as: UTF8.self).hasPrefix("[\"mate\",80,0,"))
    }

    /// The format of each segment in `machine`'s log on its hub, oldest first.
    static func formats(of machine: Machine) async throws -> [UInt8] {
        let hub = machine.engine.hub
        try await hub.refresh(after: [:])
        var formats: [UInt8] = []
        for name in try await hub.log(of: machine.store.deviceID).names.sorted(by: { $0.last < $1.last }) {
            formats.append(try await hub.read(name, of: machine.store.deviceID)[4])
        }
        return formats
    }
}
