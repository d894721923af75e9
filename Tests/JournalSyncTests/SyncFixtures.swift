import Foundation
import JournalKit
import TestSupport

@testable import FolderHub
@testable import JournalSync

/// A clock that always reads the same instant: every replica's writes then get equal physical
/// times, so their hybrid clocks tie often and ties are broken by origin.
let sameInstant = FixedClock(Timestamp(milliseconds: 1_795_262_400_000))

/// One machine in a test: a journal of its own, joined to a shared folder hub.
struct Machine {
    let store: JournalStore
    let engine: SyncEngine

    static func make(_ folder: String, name: String, hubFolder: String, key: SyncKey, segmentSize: Int = 2000,
                     clock: any JournalClock = sameInstant, invitedBy inviter: Machine? = nil) async throws -> Machine {
        try await make(
            folder, name: name, place: FolderPlace(folder: hubFolder), key: key, segmentSize: segmentSize, clock: clock, invitedBy: inviter)
    }

    /// A machine joined to the hub at `place`, made there if there is none yet: with an invitation
    /// `inviter` printed (as `journal sync key` prints one with the key), or with the key alone.
    static func make(_ folder: String, name: String, place: any HubPlace, key: SyncKey, segmentSize: Int = 2000,
                     clock: any JournalClock = sameInstant, invitedBy inviter: Machine? = nil,
                     executor: any StoreExecutor = SerialThreadExecutor()) async throws -> Machine {
        let store = try await JournalStore(path: "\(folder)/\(name).db", clock: clock, physicalClock: clock, executor: executor)
        let hub = try await place.hubExists() ? try await place.open(key: key, expecting: nil) : try await place.make(key: key, shared: false)
        let deviceKeys = DeviceKeys()
        var admission: DeviceCard.Admission?
        var tag: [UInt8]?
        if let inviter {
            let invitation = SyncSetup.makeInvitation(by: inviter.store.deviceID)
            let printedAt = inviter.store.clock.now()
            try await inviter.store.recordInvitation(
                publicKey: invitation.publicKey, claim: invitation.claim, at: printedAt, expiresAt: printedAt + Invitation.lifetime,
                keyCheck: await inviter.engine.key.check, hubID: hub.id)
            admission = try Invitations.admission(seed: invitation.seed, hubID: hub.id, device: store.deviceID, keys: deviceKeys.publicKeys)
            tag = Invitations.tag(seed: invitation.seed)
        }
        try await store.joinHub(id: hub.id, kind: place.kind.rawValue, location: place.location, admission: admission, invitationTag: tag)
        return Machine(store: store, engine: SyncEngine(store: store, hub: hub, key: key, deviceKeys: deviceKeys, segmentSize: segmentSize))
    }

    /// A sync of `scope`: whole, as `journal sync` runs it, or of the logs a ring named.
    @discardableResult
    func sync(_ scope: SyncScope = .whole) async throws -> SyncReport { try await engine.sync(scope) }

    /// The scope a sync takes in a random history: whole (`pick` 0), or the logs a ring named, true
    /// or forged: another machine's (1), or every log on the hub (2).
    func scope(pick: Int, other: Machine) async throws -> SyncScope {
        switch pick % 3 {
        case 0: .whole
        case 1: .logs([other.store.deviceID])
        default: .logs(Set(try await engine.hub.devices()))
        }
    }

    /// Everything the journal holds about its drinks, tombstones included, without local sequence numbers.
    func state() async throws -> Set<RecordState> {
        Set(try await store.changes(since: nil, limit: 1_000_000).records.map(RecordState.init))
    }

    /// The custom drinks, tombstones included, without local sequence numbers.
    func kinds() async throws -> [[SQLiteValue]] { try await otherKindsState(store) }
}

struct RecordState: Hashable, CustomStringConvertible {
    let drink: Drink
    let isDeleted: Bool
    let clock: HybridTimestamp
    let origin: DeviceID

    init(_ record: Replicated<Drink>) {
        drink = record.payload
        isDeleted = record.isDeleted
        clock = record.clock
        origin = record.origin
    }

    var description: String { "\(drink.id.short) \(drink.kind) \(drink.caffeineMg) \(drink.note ?? "-") deleted=\(isDeleted) \(clock) \(origin.rawValue.prefix(4))" }
}

/// Every custom drink row but its local sequence number, in name order.
/// The records of the kinds other than drinks, as stored: custom drinks, then nights.
func otherKindsState(_ store: JournalStore) async throws -> [[SQLiteValue]] {
    var rows: [[SQLiteValue]] = []
    for query in [
        "SELECT name, caffeine_mg, deleted, hlc, origin FROM custom_drinks ORDER BY name",
        "SELECT night, in_bed_at, asleep_at, woke_at, asleep_ms, awakenings, source, deleted, hlc, origin FROM nights ORDER BY night",
    ] {
        try UserSQL.run(query, on: store.path) { event in
            if case .row(let values) = event { rows.append(values) }
        }
    }
    return rows
}

/// A night of a small pool, so that machines import the same dates with other figures.
func night(_ pick: Int, _ other: Int) -> Night {
    let date = LocalDate(year: 2026, month: 11, day: 1 + pick % 3)
    let inBed = Timestamp(milliseconds: 1_793_534_400_000 + Int64(pick % 3) * 86_400_000 + 10 * 3_600_000 + Int64(other) * 600_000)
    let asleep = inBed + .seconds(Int64(pick) * 60)
    return Night(
        date: date, inBedAt: inBed, asleepAt: asleep, wokeAt: asleep + .seconds(7 * 3600), asleepMilliseconds: 6 * 3_600_000,
        awakenings: pick % 4, source: "watch-\(other)")
}

func drink(_ kind: String = "espresso", mg: Double = 64, minute: Int64 = 0, note: String? = nil) -> NewDrink {
    NewDrink(kind: kind, caffeineMg: mg, consumedAt: Timestamp(milliseconds: 1_795_200_000_000 + minute * 60_000), note: note)
}

/// Every file under `folder`, with its bytes: to check what a step wrote, or that it wrote nothing.
func snapshot(_ folder: String) -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
    for case let path as String in walker {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
            files[path] = FileManager.default.contents(atPath: folder + "/" + path)
        }
    }
    return files
}
