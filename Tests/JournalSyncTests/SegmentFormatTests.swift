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
