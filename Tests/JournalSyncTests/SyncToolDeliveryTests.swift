import Foundation
import JournalKit
import PropertyBased
import Testing
import TestSupport

@testable import JournalSync

/// Machines that each sync with their own copy of a folder hub, and a sync tool (Syncthing, Dropbox)
/// that copies the files between the copies one at a time, in any order: segments before the cards
/// that check their signatures, cards after or before the segments they announce, segments a device
/// compacted away relayed by a third copy. Whatever the order, every machine ends with the same
/// journal, and nothing waits or fails once every file has arrived.
@Suite(.onTestThreads) struct SyncToolDeliveryTests {
    /// What happens next, a `Step` of its own range of actions: the tool copying one file from one copy
    /// to another (0-5), a sync (6-8), or a write (9-15, `ConvergenceTests.write`'s actions 0-6).
    static let moves = zip(Gen.int(in: 0...15), Gen.int(in: 0...2), Gen.int(in: 0...40), Gen.int(in: 0...2))
        .map { Step(action: $0, replica: $1, pick: $2, other: $3) }
        .array(of: 1...50)

    @Test func anyOrderOfFilesASyncToolDeliversConverges() async throws {
        await checkProperty(count: 25, input: Self.moves) { moves in
            try await withTemporaryDirectory { folder in
                let key = SyncKey()
                let first = try await Machine.make(folder, name: "m0", hubFolder: folder + "/copy0", key: key, segmentSize: 3)
                var machines = [first]
                for index in 1..<3 {
                    // Each copy starts as the tool made it: the hub's descriptor, copied.
                    try FileManager.default.createDirectory(atPath: folder + "/copy\(index)/journal-hub-v1", withIntermediateDirectories: true)
                    try FileManager.default.copyItem(
                        atPath: folder + "/copy0/journal-hub-v1/hub.json", toPath: folder + "/copy\(index)/journal-hub-v1/hub.json")
                    machines.append(try await Machine.make(folder, name: "m\(index)", hubFolder: folder + "/copy\(index)", key: key, segmentSize: 3))
                }
                let tool = SyncTool(copies: (0..<3).map { folder + "/copy\($0)/journal-hub-v1" }, owners: machines.map(\.store.deviceID))
                for move in moves {
                    switch move.action {
                    case 0...5: try tool.copyOne(from: move.replica, to: move.other, pick: move.pick)
                    case 6...8: try await machines[move.replica].sync()
                    default:
                        try await ConvergenceTests.write(
                            Step(action: move.action - 9, replica: move.replica, pick: move.pick, other: move.other), on: machines[move.replica].store)
                    }
                }
                // Every machine publishes, the tool brings every file everywhere, and every machine reads.
                for machine in machines { try await machine.sync() }
                try tool.copyAll()
                var reports: [SyncReport] = []
                for machine in machines { reports.append(try await machine.sync()) }
                let states = try await machines.asyncMap { try await $0.state() }
                #expect(states[0] == states[1] && states[1] == states[2], "moves \(moves)")
                for report in reports { #expect(report.failures.isEmpty && report.waiting.isEmpty, "\(report) after \(moves)") }
                for machine in machines { await machine.engine.close() }
            }
        }
    }
}

/// Copies files between copies of a hub folder as a sync tool does: a device's own copy is where its
/// log and card are written, so nothing of a device is ever copied into its own copy (the tool carries
/// its removals the other way); any copy relays what it has to the others.
struct SyncTool {
    let copies: [String]
    let owners: [DeviceID]

    /// The files `source` has that `target` has not (or has in another version, for a card), each as a
    /// path inside the hub folder.
    private func missing(from source: Int, to target: Int) throws -> [String] {
        let files = FileManager.default
        var paths: [String] = []
        let sourceDevices = (try? files.contentsOfDirectory(atPath: copies[source] + "/devices")) ?? []
        for device in sourceDevices.sorted() where device != owners[target].rawValue {
            for name in ((try? files.contentsOfDirectory(atPath: copies[source] + "/devices/" + device)) ?? []).sorted()
            where !name.hasPrefix(".") && !files.fileExists(atPath: copies[target] + "/devices/" + device + "/" + name) {
                paths.append("devices/" + device + "/" + name)
            }
        }
        for name in ((try? files.contentsOfDirectory(atPath: copies[source] + "/cards")) ?? []).sorted()
        where !name.hasPrefix(".") && name != owners[target].rawValue + ".card" {
            let path = "cards/" + name
            if files.contents(atPath: copies[source] + "/" + path) != files.contents(atPath: copies[target] + "/" + path) { paths.append(path) }
        }
        for name in ((try? files.contentsOfDirectory(atPath: copies[source] + "/epochs")) ?? []).sorted()
        where !name.hasPrefix(".") && !files.fileExists(atPath: copies[target] + "/epochs/" + name) {
            paths.append("epochs/" + name)
        }
        return paths
    }

    /// Copies one file `source` has and `target` lacks, chosen by `pick`; nothing when there is none.
    func copyOne(from source: Int, to target: Int, pick: Int) throws {
        guard source != target else { return }
        let paths = try missing(from: source, to: target)
        guard !paths.isEmpty else { return }
        try copy(paths[pick % paths.count], from: source, to: target)
    }

    /// Copies every device's files from its own copy to every other, until nothing is missing anywhere.
    func copyAll() throws {
        for source in copies.indices {
            for target in copies.indices where target != source {
                for path in try missing(from: source, to: target) where path.contains(owners[source].rawValue) || path.hasPrefix("epochs/") {
                    try copy(path, from: source, to: target)
                }
            }
        }
    }

    /// Copies every key epoch record from every copy to every other: what a revoked machine waits for
    /// before it forges, in a test of what it can do once its revocation is known everywhere.
    func copyEpochsEverywhere() throws {
        for source in copies.indices {
            for target in copies.indices where target != source {
                for path in try missing(from: source, to: target) where path.hasPrefix("epochs/") { try copy(path, from: source, to: target) }
            }
        }
    }

    private func copy(_ path: String, from source: Int, to target: Int) throws {
        let destination = copies[target] + "/" + path
        try FileManager.default.createDirectory(
            atPath: String(destination[..<destination.lastIndex(of: "/")!]), withIntermediateDirectories: true)
        // Whole or not at all, as the tools do: written beside it under a dot-name, then renamed.
        let temporary = String(destination[..<destination.lastIndex(of: "/")!]) + "/.syncthing.tmp"
        try FileManager.default.copyItem(atPath: copies[source] + "/" + path, toPath: temporary)
        _ = rename(temporary, destination)
    }
}
