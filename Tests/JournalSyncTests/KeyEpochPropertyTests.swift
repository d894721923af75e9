import Foundation
import JournalKit
import PropertyBased
import Testing
import TestSupport

@testable import JournalSync

/// Rotations and a revocation interleaved with writes, syncs and a sync tool delivering files in any
/// order between each machine's own copy of a folder hub: rotations made at once on different copies,
/// a revocation crossing a rotation, machines that sync rarely.
@Suite(.onTestThreads) struct KeyEpochPropertyTests {
    /// The tool copying one file (0-5), a sync (6-8), a rotation (9), the revocation of machine 3
    /// (10), or a write (11-17, `ConvergenceTests.write`'s actions 0-6); machines 0-2 rotate and revoke.
    static let moves = zip(Gen.int(in: 0...17), Gen.int(in: 0...3), Gen.int(in: 0...40), Gen.int(in: 0...3))
        .map { Step(action: $0, replica: $1, pick: $2, other: $3) }
        .array(of: 1...50)

    @Test func rotationsAndARevocationInAnyDeliveryOrderConverge() async throws {
        await checkProperty(count: 20, input: Self.moves) { moves in
            try await withTemporaryDirectory { folder in
                let key = SyncKey()
                var machines = [try await Machine.make(folder, name: "m0", hubFolder: folder + "/copy0", key: key, segmentSize: 3)]
                for index in 1..<4 {
                    try FileManager.default.createDirectory(atPath: folder + "/copy\(index)/journal-hub-v1", withIntermediateDirectories: true)
                    try FileManager.default.copyItem(
                        atPath: folder + "/copy0/journal-hub-v1/hub.json", toPath: folder + "/copy\(index)/journal-hub-v1/hub.json")
                    machines.append(try await Machine.make(folder, name: "m\(index)", hubFolder: folder + "/copy\(index)", key: key, segmentSize: 3))
                }
                let tool = SyncTool(copies: (0..<4).map { folder + "/copy\($0)/journal-hub-v1" }, owners: machines.map(\.store.deviceID))
                // Every machine knows every card before the history starts: a key goes to the devices its maker knows.
                for _ in 0..<2 {
                    for machine in machines { try await machine.sync() }
                    try tool.copyAll()
                }
                let spare = machines[3]
                var revoked = false
                /// A sync, where the spare machine, once revoked, is refused.
                func sync(_ machine: Machine) async throws -> SyncReport? {
                    do { return try await machine.sync() } catch SyncError.deviceRevoked where machine.store.deviceID == spare.store.deviceID {
                        return nil
                    }
                }
                for move in moves {
                    let member = machines[move.replica % 3]
                    switch move.action {
                    case 0...5: try tool.copyOne(from: move.replica, to: move.other, pick: move.pick)
                    case 6...8: _ = try await sync(machines[move.replica])
                    case 9: _ = try await member.engine.rotateKey()
                    case 10:
                        _ = try await member.engine.rotateKey(revoking: [spare.store.deviceID])
                        revoked = true
                    default:
                        try await ConvergenceTests.write(
                            Step(action: move.action - 11, replica: move.replica, pick: move.pick, other: move.other),
                            on: machines[move.replica].store)
                    }
                }
                var reports: [SyncReport] = []
                for _ in 0..<2 {
                    for machine in machines { _ = try await sync(machine) }
                    try tool.copyAll()
                }
                for machine in machines.prefix(3) { reports.append(try #require(try await sync(machine))) }
                for report in reports { #expect(report.failures.isEmpty && report.waiting.isEmpty, "\(report) after \(moves)") }
                let members = Array(machines.prefix(3))
                // What the spare published past its revocation reached some members and not others: the rest agrees.
                let states = try await members.asyncMap { machine in
                    try await machine.state().filter { !revoked || $0.origin != spare.store.deviceID }
                }
                #expect(states[0] == states[1] && states[1] == states[2], "moves \(moves)")
                let currents = await members.asyncMap { await $0.engine.epochs.current }
                #expect(Set(currents).count == 1, "moves \(moves)")
                if revoked {
                    // The spare holds no key of an epoch sealed under since it was shut out.
                    let chain = await members[0].engine.epochs
                    for record in chain.eligible where !record.reaches.contains(spare.store.deviceID) {
                        #expect(await spare.engine.epochKey(record.epoch) == nil, "moves \(moves)")
                    }
                    #expect(try await sync(spare) == nil)
                } else {
                    #expect(try await spare.state() == machines[0].state(), "moves \(moves)")
                }
                for machine in machines { await machine.engine.close() }
            }
        }
    }
}
