import Foundation
import JournalKit
import PropertyBased
import Testing
import TestSupport

@testable import JournalSync

/// Rotations and revocations interleaved with writes, syncs and a sync tool delivering files in any
/// order between each machine's own copy of a folder hub: rotations made at once on different copies,
/// a revocation crossing a rotation or another revocation, machines that sync rarely, clocks that run
/// ahead (a member's by two minutes, a spare's by three years); and a revoked machine as an adversary,
/// keeping every key it can work out from the hub and writing anything it can.
@Suite(.onTestThreads) struct KeyEpochPropertyTests {
    /// The tool copying one file (0-5), a sync (6-8: `Machine.scope`'s three), a rotation (9), the revocation of machine 3 or 4
    /// (10), a write (11-17, `ConvergenceTests.write`'s actions 0-6), or a revoked machine forging (18);
    /// machines 0-2 rotate and revoke.
    static let moves = zip(Gen.int(in: 0...18), Gen.int(in: 0...4), Gen.int(in: 0...40), Gen.int(in: 0...4))
        .map { Step(action: $0, replica: $1, pick: $2, other: $3) }
        .array(of: 1...50)

    /// What a revoked machine can write into its copy of the hub with every key it can work out from it,
    /// once the records that revoked it are on every copy (so a member reads the revocation before any
    /// of this): for each key, a device of its own under a new id (its card sealed under that key, a
    /// signed segment adding a drink and deleting one of the members'); an unsigned, old-format segment
    /// under another new id, sealed under the first key; and a segment under its own id past its
    /// revocation. Returns the ids it made up.
    static func forge(_ spare: Machine, victim: Drink?, firstKey: SyncKey, position: Int64) async throws -> [DeviceID] {
        let hub = spare.engine.hub
        let keys = try await KeyEpochTests.reachableKeys(of: spare)
        let drinks = [
            "\"\(UUIDText.random())\", \"espresso\", 999, 1795300000000, \"forged\", 0",
        ] + (victim.map { ["\"\($0.id.rawValue)\", \"\($0.kind)\", \($0.caffeineMg), \($0.consumedAt.milliseconds), null, 1"] } ?? [])
        var made: [DeviceID] = []
        let name = SegmentName(first: position, last: position)
        for (epoch, key) in keys.sorted(by: { $0.key < $1.key }) {
            let forger = RevocationHoldsTests.Forger()
            try await hub.writeCard(try forger.card(epoch: epoch, key: key, hubID: hub.id), of: forger.device)
            _ = try? await hub.write(try forger.segment(drinks, name: name, epoch: epoch, key: key, hubID: hub.id), as: name, of: forger.device)
            made.append(forger.device)
        }
        let unsigned = DeviceID(rawValue: UUIDText.random())
        let plaintext = RevocationHoldsTests.listing(drinks, origin: unsigned)
        _ = try? await hub.write(try SegmentSeal.sealUnsigned(Array(plaintext.utf8), format: 2, key: firstKey, device: unsigned, name: name), as: name, of: unsigned)
        made.append(unsigned)
        if let (epoch, key) = keys.max(by: { $0.key < $1.key }) {
            let own = SegmentName(first: 1_000_000 + position, last: 1_000_000 + position)
            let plaintext = RevocationHoldsTests.listing(drinks, origin: spare.store.deviceID)
            _ = try? await hub.write(
                try SegmentSeal.seal(
                    Array(plaintext.utf8), format: 3, epoch: epoch, key: key, signer: spare.engine.deviceKeys, hubID: hub.id,
                    device: spare.store.deviceID, name: own), as: own, of: spare.store.deviceID)
        }
        return made
    }

    @Test func rotationsAndRevocationsInAnyDeliveryOrderConverge() async throws {
        await checkProperty(count: 25, input: Self.moves) { moves in try await Self.play(moves) }
    }

    /// Histories the property once failed on, played again.
    @Test(arguments: [
        // Four rotations in a row, and one file of them copied to a spare's copy before the rest.
        [(9, 0, 0, 0), (9, 0, 0, 0), (9, 0, 0, 0), (9, 0, 0, 0), (0, 0, 7, 3)],
        [(11, 3, 0, 0), (6, 3, 0, 0), (0, 3, 0, 0), (6, 0, 0, 0), (11, 3, 0, 0), (10, 0, 0, 0)],
        // A revocation, the revoked spare forging, one of its files relayed to the other spare's copy, and
        // that spare reading the logs a ring named before any whole sync: it took the forged unsigned
        // segment (about one run in four, as the file relayed depends on the ids made up).
        [(10, 0, 0, 0), (18, 0, 0, 0), (1, 3, 0, 2), (0, 2, 0, 4), (8, 4, 5, 0)],
    ])
    func aHistoryOnceFoundConverges(_ moves: [(Int, Int, Int, Int)]) async throws {
        try await Self.play(moves.map { Step(action: $0.0, replica: $0.1, pick: $0.2, other: $0.3) })
    }

    /// Plays `moves` on five machines, each syncing with its own copy of a folder hub, and checks what
    /// the property says.
    static func play(_ moves: [Step]) async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            // m1's clock runs two minutes ahead, m3's (a spare, maybe the adversary) three years.
            let clocks: [any JournalClock] = [
                sameInstant, FixedClock(sameInstant.instant + .seconds(120)), sameInstant,
                FixedClock(sameInstant.instant + .seconds(3 * 365 * 86_400)), sameInstant,
            ]
            var machines = [try await Machine.make(folder, name: "m0", hubFolder: folder + "/copy0", key: key, segmentSize: 3)]
            for index in 1..<5 {
                try FileManager.default.createDirectory(atPath: folder + "/copy\(index)/journal-hub-v1", withIntermediateDirectories: true)
                try FileManager.default.copyItem(
                    atPath: folder + "/copy0/journal-hub-v1/hub.json", toPath: folder + "/copy\(index)/journal-hub-v1/hub.json")
                machines.append(try await Machine.make(
                    folder, name: "m\(index)", hubFolder: folder + "/copy\(index)", key: key, segmentSize: 3, clock: clocks[index],
                    invitedBy: machines[0]))
            }
            let tool = SyncTool(copies: (0..<5).map { folder + "/copy\($0)/journal-hub-v1" }, owners: machines.map(\.store.deviceID))
            // Every machine knows every card before the history starts: a key goes to the devices its maker
            // knows. Three rounds: m0 vouches for the machines that joined with its invitations once it reads
            // their cards, and they vouch back once they read its card saying so.
            for _ in 0..<3 {
                for machine in machines { try await machine.sync() }
                try tool.copyAll()
            }
            let spares = Array(machines[3...])
            var revoked: Set<DeviceID> = []
            var forged: Set<DeviceID> = []
            var forgeries = 0
            /// A sync, where a spare machine, once revoked, is refused.
            func sync(_ machine: Machine, _ scope: SyncScope = .whole) async throws -> SyncReport? {
                do { return try await machine.sync(scope) } catch SyncError.deviceRevoked where revoked.contains(machine.store.deviceID) {
                    return nil
                }
            }
            for move in moves {
                let member = machines[move.replica % 3]
                switch move.action {
                case 0...5: try tool.copyOne(from: move.replica, to: move.other, pick: move.pick)
                case 6...8:
                    // As a daemon syncs: whole, or the logs a ring named, true or forged.
                    let machine = machines[move.replica]
                    _ = try await sync(machine, try await machine.scope(pick: move.action, other: machines[move.other]))
                case 9: _ = try await member.engine.rotateKey()
                case 10:
                    let spare = spares[move.other % spares.count].store.deviceID
                    _ = try await member.engine.rotateKey(revoking: [spare])
                    revoked.insert(spare)
                case 18:
                    // Only a spare already revoked forges, once the records revoking it are on every copy.
                    guard let spare = spares.first(where: { revoked.contains($0.store.deviceID) && $0.store.deviceID == spares[move.other % spares.count].store.deviceID })
                    else { break }
                    try tool.copyEpochsEverywhere()
                    forgeries += 1
                    let victim = try await machines[0].store.drinks().first
                    forged.formUnion(try await Self.forge(spare, victim: victim, firstKey: key, position: Int64(forgeries)))
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
            let members = Array(machines.prefix(3))
            // Each member writes once more: what follows every revocation, on every copy.
            for (index, member) in members.enumerated() { _ = try await member.store.add(drink(minute: Int64(1000 + index), note: "last")) }
            for member in members { _ = try await sync(member) }
            try tool.copyAll()
            for member in members { reports.append(try #require(try await sync(member))) }
            // A signed segment a forger sent without its card waits for the card, as one a sync tool
            // copied first does; nothing real waits.
            for report in reports {
                #expect(report.failures.isEmpty && report.waiting.allSatisfy { forged.contains($0.device) }, "\(report) after \(moves)")
            }
            // Nothing a revoked spare forged after its revocation was on every copy reached any member.
            for member in members {
                let origins = Set(try await member.state().map(\.origin))
                #expect(origins.isDisjoint(with: forged), "moves \(moves)")
                #expect(!(try await member.store.drinks().contains { $0.caffeineMg == 999 }), "moves \(moves)")
                for device in forged { #expect(await member.engine.standing(of: device) == .outside, "moves \(moves)") }
            }
            // What a spare published past its revocation reached the devices that synced before the
            // revocation reached them, and not the others: the rest agrees.
            func state(of machine: Machine) async throws -> Set<RecordState> { try await machine.state().filter { !revoked.contains($0.origin) } }
            let states = try await members.asyncMap { try await state(of: $0) }
            #expect(states[0] == states[1] && states[1] == states[2], "moves \(moves)")
            let currents = await members.asyncMap { await $0.engine.epochs.current }
            #expect(Set(currents).count == 1, "moves \(moves)")
            for spare in spares {
                guard revoked.contains(spare.store.deviceID) else {
                    let report = try #require(try await sync(spare))
                    #expect(report.failures.isEmpty && report.waiting.allSatisfy { forged.contains($0.device) }, "\(report) after \(moves)")
                    #expect(try await state(of: spare) == state(of: machines[0]), "moves \(moves)")
                    continue
                }
                // Given the whole hub, with a program of its own, a revoked spare reaches no key of what the members wrote last.
                #expect(try await sync(spare) == nil)
                let reach = try await KeyEpochTests.keysWithinReach(of: spare)
                for member in members {
                    let newest = try #require(try await KeyEpochTests.segmentEpochs(of: member.store.deviceID, on: spare.engine.hub).last)
                    #expect(!reach.contains(newest), "\(newest) is within a revoked spare's reach after \(moves)")
                }
            }
            for machine in machines { await machine.engine.close() }
        }
    }
}
