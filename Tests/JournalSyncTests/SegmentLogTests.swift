import Foundation
import JournalKit
import Testing
import TestSupport

@testable import FolderHub
@testable import JournalSync

/// Each device's log on the hub as readers meet it: damaged segments, segments still on their way,
/// and ranges that follow one another without a gap.
@Suite(.onTestThreads) struct SegmentLogTests {
    @Test(arguments: SegmentDamage.allCases)
    func aDamagedSegmentIsReportedAndHeldBackWhileOtherDevicesSync(damage: SegmentDamage) async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, segmentSize: 2)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            let c = try await Machine.make(folder, name: "c", hubFolder: folder + "/hub", key: key)
            for minute in 0..<6 { _ = try await a.store.add(drink(minute: Int64(minute))) }
            _ = try await b.store.add(drink("cola"))
            try await a.sync()
            try await b.sync()
            let hub = a.engine.hub as! FolderHub
            let segments = try hub.log(of: a.store.deviceID).names
            #expect(segments.count == 3)
            let victim = segments[1]
            let path = hub.deviceFolder(a.store.deviceID) + "/" + victim.fileName
            let original = try Data(contentsOf: URL(fileURLWithPath: path))
            try damage.apply(to: path, original: original, hub: hub, device: a.store.deviceID, otherDevice: b.store.deviceID, key: key)

            let report = try await c.sync()
            #expect(report.failures.count == 1)
            #expect(report.failures.first?.segment == victim.fileName)
            #expect(report.failures.first?.device == a.store.deviceID)
            if let reason = damage.reason { #expect(report.failures.first?.reason.hasPrefix(reason) == true, "\(report.failures)") }
            // The first segment of a and everything of b arrived; the damaged one and the one after did not.
            #expect(report.received == 3)
            #expect(try await c.store.anchors(hubID: hub.id)[a.store.deviceID] == segments[0].last)
            #expect(try await c.store.anchors(hubID: hub.id)[b.store.deviceID] != nil)
            // Retried on every sync, and applied once the segment is whole again.
            #expect(try await c.sync().failures.count == 1)
            try original.write(to: URL(fileURLWithPath: path))
            let healed = try await c.sync()
            #expect(healed.failures.isEmpty)
            #expect(try await c.state() == Set(a.state()).union(try await b.state()))
        }
    }

    @Test func aSegmentStillOnItsWayHoldsItsDeviceBackWithoutLosingIt() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, segmentSize: 2)
            let c = try await Machine.make(folder, name: "c", hubFolder: folder + "/hub", key: key)
            for minute in 0..<6 { _ = try await a.store.add(drink(minute: Int64(minute))) }
            try await a.sync()
            let hub = a.engine.hub as! FolderHub
            let segments = try hub.log(of: a.store.deviceID).names
            let middle = hub.deviceFolder(a.store.deviceID) + "/" + segments[1].fileName
            // Syncthing or Dropbox may bring the later segments first.
            try FileManager.default.moveItem(atPath: middle, toPath: folder + "/in-transit")
            let early = try await c.sync()
            #expect(early.failures.isEmpty)
            #expect(early.received == 2)
            #expect(early.waiting.map { [$0.first, $0.last] } == [[3, 4]])
            #expect(early.waiting.first?.device == a.store.deviceID)
            #expect(early.summary.contains("its changes at positions 3 to 4 are not on the hub yet"), "\(early.summary)")
            #expect(!early.summary.contains("agree"))
            try FileManager.default.moveItem(atPath: folder + "/in-transit", toPath: middle)
            let late = try await c.sync()
            #expect(late.received == 4)
            #expect(late.waiting.isEmpty)
            #expect(try await c.state() == a.state())
        }
    }

    @Test func aDevicesSegmentsCoverItsPositionsWithoutGaps() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, segmentSize: 2)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            for round in 0..<4 {
                _ = try await b.store.add(drink("cola", minute: Int64(round)))
                try await b.sync()
                // a's positions now include b's changes, which a does not publish.
                try await a.sync()
                for minute in 0..<3 { _ = try await a.store.add(drink(minute: Int64(round * 10 + minute))) }
                try await a.sync()
            }
            let segments = try await a.engine.hub.log(of: a.store.deviceID).names
            #expect(segments.first?.first == 1)
            for (earlier, later) in zip(segments, segments.dropFirst()) {
                #expect(later.first == earlier.last + 1, "\(earlier) then \(later)")
            }
            #expect(try await b.sync().waiting.isEmpty)
            #expect(try await b.state() == a.state())
        }
    }
}

/// Ways a segment on the hub can be damaged.
enum SegmentDamage: String, CaseIterable, Sendable {
    case flippedByte, truncated, emptied, replacedWithGarbage, movedFromAnotherPosition, movedFromAnotherDevice, sealedWithAnotherKey,
        fromANewerJournal,
        /// Sealed with the hub's key under the right epoch, by a member posing as the device.
        signedByAnotherDevice,
        /// Sealed with the hub's key the way journals wrote before signing, where the device signs.
        unsignedWhereItsDeviceSigns

    /// What the reader's refusal says, where the damage has a reason of its own.
    var reason: String? {
        switch self {
        case .signedByAnotherDevice: "its signature does not verify: it was not written by the device whose log holds it"
        case .unsignedWhereItsDeviceSigns: "it is not signed, and its device signs everything from position 1 on"
        case .fromANewerJournal: "it was written by a newer journal (segment format \(SegmentCodec.format + 1)); update journal on this machine"
        default: nil
        }
    }

    func apply(to path: String, original: Data, hub: FolderHub, device: DeviceID, otherDevice: DeviceID, key: SyncKey) throws {
        var bytes = [UInt8](original)
        switch self {
        case .flippedByte: bytes[bytes.count / 2] ^= 0x40
        case .truncated: bytes = Array(bytes.prefix(bytes.count - 7))
        case .emptied: bytes = []
        case .replacedWithGarbage: bytes = Array("not a segment at all".utf8)
        case .movedFromAnotherPosition:
            // The first segment's bytes, put where the second belongs.
            let first = try hub.log(of: device).names[0]
            bytes = try hub.read(first, of: device)
        case .movedFromAnotherDevice:
            let theirs = try hub.log(of: otherDevice).names[0]
            bytes = try hub.read(theirs, of: otherDevice)
        case .fromANewerJournal:
            // Authentic, but in a segment format this journal does not know yet.
            let name = SegmentName(fileName: String(path.split(separator: "/").last!))!
            bytes = try SegmentSeal.sealUnsigned(Array("[]".utf8), format: SegmentCodec.format + 1, key: key, device: device, name: name)
        case .sealedWithAnotherKey:
            let name = SegmentName(fileName: String(path.split(separator: "/").last!))!
            bytes = try SegmentSeal.seal(
                SegmentCodec.encode([], device: device).bytes, format: SegmentSeal.signedFormat, epoch: .first, key: SyncKey(), signer: DeviceKeys(), hubID: hub.id, device: device, name: name)
        case .signedByAnotherDevice:
            let name = SegmentName(fileName: String(path.split(separator: "/").last!))!
            bytes = try SegmentSeal.seal(
                SegmentCodec.encode([], device: device).bytes, format: SegmentSeal.signedFormat, epoch: .first, key: key, signer: DeviceKeys(), hubID: hub.id, device: device, name: name)
        case .unsignedWhereItsDeviceSigns:
            let name = SegmentName(fileName: String(path.split(separator: "/").last!))!
            bytes = try SegmentSeal.sealUnsigned(SegmentCodec.encodeUnsigned([]).bytes, format: 1, key: key, device: device, name: name)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
