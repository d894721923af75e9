import JournalKit

/// What `journal sync status` shows: the hub, this device, what waits to be published, the last sync,
/// the daemon, and how far each other device's log was applied against what the hub offers.
public struct SyncOverview: Sendable {
    public let hub: String
    /// The hub's label, the first group of the key `journal sync key` prints for it.
    public let hubLabel: String
    public let device: DeviceID
    public let pendingChanges: Int
    public let lastSyncAt: Timestamp?
    public let lastSync: SyncOutcome?
    /// The running daemon's process id, if one runs for this journal.
    public let daemonPID: Int32?
    /// Why the hub could not be read, when it could not: the rest is still shown.
    public let hubProblem: String?
    public let devices: [DeviceState]
    /// Other devices' changes this journal waits for (a gap in their logs), as of `at`.
    public let waiting: [WaitingPositions]
    public let at: Timestamp
    /// What the hub says of itself (a server's version, TLS; warnings for a person), when it could be
    /// reached.
    public let description: HubDescription?
    /// How the daemon hears of another device's change on the hub, when it could be reached.
    public let heard: HubChanges.HeardBy?
    /// When the daemon last heard of another device's change, if ever (a server's notification, or
    /// a look at a polled hub).
    public let lastNotificationAt: Timestamp?
    /// The hub's kind, as the journal recorded it.
    public let kind: String
    /// Files found in this device's log that it did not write, newest first.
    public let setAside: [SetAsideFile]
    /// What this journal applied of revoked devices past their revocations.
    public let keptFromShutOut: [KeptChanges]
    /// Cards and key epoch records on the hub that were refused (junk, altered, another device's keys):
    /// each read once and not again until it changes.
    public let refusedOnHub: [HubItem]
    /// The reading this machine's hybrid clock left behind, while it is still ahead of now: changes
    /// made here while the machine's clock was wrong still win their merges until then.
    public let clockLeftBehind: ClockLeftBehind?
    /// What this device published here of other devices' records when the journal moved here.
    public let moved: MovedHere?

    /// One other device: how far its log was applied here, how far it goes on the hub (positions in
    /// its own change sequence, not counts of changes), its card, and its revocation.
    public struct DeviceState: Sendable {
        public let device: DeviceID
        public let appliedPosition: Int64
        public let hubPosition: Int64?
        /// What it last said of itself (name, last sync), when it has a card.
        public let card: DeviceCard?
        /// When it was revoked, and by which device (its name): nil for a member.
        public var revoked: (by: String, at: Timestamp)?
        /// Its own changes came stamped further ahead of this machine's clock than a clock may run.
        public var clockAhead: ClockAhead?

        /// Everything of its log the hub offers is applied here; nil when the hub could not be read.
        public var isCaughtUp: Bool? { hubPosition.map { appliedPosition >= $0 } }
    }

    /// A device not heard from for this long is called silent.
    public static let silentAfter: Int64 = 24 * 3_600_000

    /// Other devices whose last sync, by their cards, is more than `silentAfter` ago.
    public var silentDevices: [DeviceState] {
        devices.filter { state in state.card?.syncedAt.map { at.milliseconds - $0.milliseconds > Self.silentAfter } ?? false }
    }

    /// The files the last sync that found any set aside from this device's log, in a sentence or two.
    public var setAsideSummary: String? {
        guard let newest = setAside.first?.at else { return nil }
        let batch = setAside.filter { $0.at == newest }
        return "\(LocalTime.display(newest)): " + SyncReport.setAsideSentences(batch).joined(separator: " ")
            + (batch.contains { $0.outcome == .moved } ? " Moved files are kept in the hub's set-aside folder for this device." : "")
            + (batch.count > 3 ? " All of them: journal sync status --json." : "")
    }

    /// Gathers the overview of `store`'s sync; refused when the journal is not joined.
    public static func gather(_ store: JournalStore, hubs: HubRegistry) async throws -> SyncOverview {
        guard let joined = try await store.hub() else { throw SyncError.notJoined }
        let pending = try await store.unpublishedCount(hubID: joined.hubID)
        let anchors = try await store.anchors(hubID: joined.hubID)
        let waiting = try await store.waiting(hubID: joined.hubID)
        let clocksAhead = try await store.clocksAhead(hubID: joined.hubID)
        var available: [DeviceID: Int64] = [:]
        var cards: [DeviceID: DeviceCard] = [:]
        var hubProblem: String?
        var description: HubDescription?
        var heard: HubChanges.HeardBy?
        var kept: [KeptChanges] = []
        var revoked: [DeviceID: (by: String, at: Timestamp)] = [:]
        do {
            // Once the hub does not answer, it is not asked anything more: each call waits its full
            // time for a server that stalls (`sync status` bounds its calls by the connect timeout),
            // and the status says what it found until then.
            try await SyncSetup.withEngine(for: store, hubs: hubs) { engine in
                try await engine.hub.refresh(after: try await engine.positionsKnown())
                for device in try await engine.hub.devices() where device != store.deviceID {
                    // One device's log that cannot be read (a link, another user's folder) is that log's
                    // problem alone: the sync passes it over, and the hub's description names it.
                    do { available[device] = try await engine.hub.log(of: device).highest ?? 0 } catch SyncError.hub(let failure) where failure.condition == .unusableEntry { continue }
                }
                description = try await engine.hub.describe()
                heard = engine.hub.changes(ownDevice: store.deviceID, clock: store.clock).heard
                // What the cards say is shown as last kept: a card that cannot be read hides nothing else.
                do { _ = try await engine.readCards() } catch {
                    if error.hubCondition == .unreachable { throw error }
                }
                kept = try await engine.keptFromShutOut()
                for (device, record) in await engine.revocations() {
                    revoked[device] = (await engine.names(of: [record.maker])[0], record.madeAt)
                }
            }
        } catch {
            hubProblem = failureMessage(error)
        }
        for card in try await store.deviceCards(hubID: joined.hubID) where card.device != store.deviceID { cards[card.device] = card }
        let devices = Set(anchors.keys).union(available.keys).union(cards.keys).sorted().map { device in
            DeviceState(
                device: device, appliedPosition: anchors[device] ?? 0, hubPosition: available[device], card: cards[device],
                revoked: revoked[device], clockAhead: clocksAhead[device])
        }
        return SyncOverview(
            hub: joined.location, hubLabel: PrintedKey.labelText(ofHub: joined.hubID), device: store.deviceID,
            pendingChanges: pending, lastSyncAt: joined.lastSyncAt,
            lastSync: joined.lastSync, daemonPID: FileLock.runningDaemon(databasePath: store.path),
            hubProblem: hubProblem, devices: devices, waiting: waiting, at: store.clock.now(), description: description, heard: heard,
            lastNotificationAt: joined.lastNotificationAt, kind: joined.kind, setAside: try await store.setAsideFiles(hubID: joined.hubID),
            keptFromShutOut: kept, refusedOnHub: try await store.refusedHubItems(hubID: joined.hubID),
            clockLeftBehind: try await store.clockLeftBehind().flatMap { leftBehind in
                HybridLogicalClock.isAhead(leftBehind.reading, of: store.clock.now()) ? leftBehind : nil
            },
            moved: try await store.movedHere(hubID: joined.hubID))
    }

    /// What `sync status --json` says of a journal that has joined no hub.
    public static func notJoinedJSON(device: DeviceID) -> JSONValue {
        .object([("joined", .bool(false)), ("device", .string(device.rawValue))])
    }

    public var json: JSONValue {
        .object([
            ("joined", .bool(true)), ("hub", .string(hub)), ("hub_label", .string(hubLabel)), ("hub_kind", .string(kind)), ("device", .string(device.rawValue)),
            ("hub_facts", .object((description?.facts ?? []).map { ($0.key, .string($0.value)) })),
            ("hub_warnings", .array((description?.warnings ?? []).map { .string($0) })),
            ("last_notification_at", lastNotificationAt.map { .string(LocalTime.iso8601($0)) } ?? .null),
            ("pending_changes", .integer(Int64(pendingChanges))),
            ("last_sync", lastSync.map { outcome in
                .object([
                    ("at", lastSyncAt.map { .string(LocalTime.iso8601($0)) } ?? .null),
                    ("result", .string(outcome.succeeded ? "ok" : "failed")),
                    ("failure", outcome.failure.map { .string($0.name) } ?? .null),
                    ("exit_status", .integer(Int64(outcome.exitStatus))),
                    ("message", .string(outcome.message)),
                ])
            } ?? .null),
            ("daemon_running", .bool(daemonPID != nil)),
            ("daemon_pid", daemonPID.map { .integer(Int64($0)) } ?? .null),
            ("hub_problem", .optional(hubProblem)),
            ("set_aside", .array(setAside.map(\.json))),
            ("kept_from_revoked", .array(keptFromShutOut.map { kept in
                .object([
                    ("device", .string(kept.device.rawValue)), ("name", .string(kept.name)), ("from_position", .integer(kept.from)),
                    ("through_position", .integer(kept.through)), ("revoked_by", .string(kept.revokedBy)),
                    ("revoked_at", .string(LocalTime.iso8601(kept.revokedAt))),
                ])
            })),
            ("refused_on_hub", .object([
                ("cards", .integer(Int64(refusedOnHub.filter { $0.kind == .card }.count))),
                ("epoch_records", .integer(Int64(refusedOnHub.filter { $0.kind == .epoch }.count))),
            ])),
            ("waiting", .array(waiting.map(\.json))),
            ("moved", moved.map { moved in
                .object([
                    ("changes", .integer(Int64(moved.changes))), ("devices", .integer(Int64(moved.devices))),
                    ("at", .string(LocalTime.iso8601(moved.at))),
                ])
            } ?? .null),
            ("clock_left_behind", clockLeftBehind.map { leftBehind in
                .object([
                    ("reading_at", .string(LocalTime.iso8601(leftBehind.reading.physicalTime))),
                    ("left_at", .string(LocalTime.iso8601(leftBehind.at))),
                ])
            } ?? .null),
            ("devices", .array(devices.map { state in
                .object([
                    ("device", .string(state.device.rawValue)), ("name", state.card.map { .string($0.name) } ?? .null),
                    ("caught_up", state.isCaughtUp.map { .bool($0) } ?? .null),
                    ("applied_position", .integer(state.appliedPosition)),
                    ("hub_position", state.hubPosition.map { .integer($0) } ?? .null),
                    ("last_synced_at", state.card?.syncedAt.map { .string(LocalTime.iso8601($0)) } ?? .null),
                    ("revoked_at", state.revoked.map { .string(LocalTime.iso8601($0.at)) } ?? .null),
                    ("revoked_by", state.revoked.map { .string($0.by) } ?? .null),
                    ("clock_ahead_s", state.clockAhead.map { .integer($0.by.components.seconds) } ?? .null),
                ])
            })),
        ])
    }
}
