import JournalKit

/// What `journal sync status` shows: the hub, this device, what waits to be published, the last sync,
/// the daemon, and how far each other device's log was applied against what the hub offers.
public struct SyncOverview: Sendable {
    public let hub: String
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
    /// Hub files and folders other users can read, how many there are, and the links in the hub.
    public let exposed: (paths: [String], count: Int, links: [String])
    /// True for a hub shared between the users of a group.
    public let hubIsShared: Bool
    /// What the hub says of itself: a server's version, TLS.
    public let facts: [HubFact]
    /// When the hub last rang the daemon, if ever (a PostgreSQL hub's notification).
    public let lastNotificationAt: Timestamp?
    /// The hub's kind: "folder", "postgres".
    public let kind: String
    /// Files found in this device's log that it did not write, newest first.
    public let setAside: [SetAsideFile]

    /// One other device: how far its log was applied here, and how far it goes on the hub.
    public struct DeviceState: Sendable {
        public let device: DeviceID
        public let appliedPosition: Int64
        public let hubPosition: Int64?
    }

    /// The paragraph `journal sync status` shows when hub files are readable by others, or nil.
    public var exposureWarning: String? {
        guard exposed.count > 0 else { return nil }
        return "\(exposed.count) file\(exposed.count == 1 ? "" : "s") and folders of the hub can be read by other users of "
            + "this machine, such as \(exposed.paths.joined(separator: ", ")): a sync tool that ignores permissions made "
            + "them so. What they hold is encrypted, but who syncs how often is not. Fix it with: "
            + "chmod -R \(hubIsShared ? "o" : "go")-rwx '\(hub)/journal-hub-v1'"
    }

    /// What `journal sync status` says of each symbolic link in the hub.
    public var linkWarnings: [String] {
        exposed.links.map { "\($0) is a symbolic link inside the hub, which journal never follows and no chmod changes: remove it (rm '\($0)')." }
    }

    /// The files the last sync that found any set aside from this device's log, in a sentence or two.
    public var setAsideSummary: String? {
        guard let newest = setAside.first?.at else { return nil }
        let batch = setAside.filter { $0.at == newest }
        return "\(LocalTime.display(newest)): " + SyncReport.setAsideSentences(batch).joined(separator: " ")
            + (batch.contains { $0.outcome == .moved } ? " Moved files are in \(hub)/journal-hub-v1/set-aside/\(device)." : "")
            + (batch.count > 3 ? " All of them: journal sync status --json." : "")
    }

    /// Gathers the overview of `store`'s sync; refused when the journal is not joined.
    public static func gather(_ store: JournalStore, places: HubPlaces = .folders) async throws -> SyncOverview {
        guard let joined = try await store.hub() else { throw SyncError.notJoined }
        let pending = try await store.unpublishedCount(hubID: joined.hubID)
        let anchors = try await store.anchors(hubID: joined.hubID)
        let waiting = try await store.waiting(hubID: joined.hubID)
        var available: [DeviceID: Int64] = [:]
        var hubProblem: String?
        var exposed: (paths: [String], count: Int, links: [String]) = ([], 0, [])
        var shared = false
        var facts: [HubFact] = []
        do {
            try await SyncSetup.withEngine(for: store, places: places) { engine in
                if let folder = engine.hub as? FolderHub {
                    exposed = folder.exposedPaths()
                    shared = folder.isShared
                }
                try await engine.hub.refresh()
                facts = await engine.hub.facts()
                for device in try await engine.hub.devices() where device != store.deviceID {
                    available[device] = try await engine.hub.log(of: device).names.map(\.last).max() ?? 0
                }
            }
        } catch {
            hubProblem = failureMessage(error)
        }
        let devices = Set(anchors.keys).union(available.keys).sorted().map { device in
            DeviceState(device: device, appliedPosition: anchors[device] ?? 0, hubPosition: available[device])
        }
        return SyncOverview(
            hub: joined.location, device: store.deviceID, pendingChanges: pending, lastSyncAt: joined.lastSyncAt,
            lastSync: joined.lastSync, daemonPID: FileLock.runningDaemon(databasePath: store.path),
            hubProblem: hubProblem, devices: devices, waiting: waiting, at: store.clock.now(), exposed: exposed,
            hubIsShared: shared, facts: facts,
            lastNotificationAt: joined.lastNotificationAt, kind: joined.kind, setAside: try await store.setAsideFiles(hubID: joined.hubID))
    }

    public var json: JSONValue {
        .object([
            ("hub", .string(hub)), ("hub_kind", .string(kind)), ("device", .string(device.rawValue)),
            ("hub_facts", .object(facts.map { ($0.key, .string($0.value)) })),
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
            ("readable_by_others", .array(exposed.paths.map { .string($0) })),
            ("links_in_hub", .array(exposed.links.map { .string($0) })),
            ("set_aside", .array(setAside.map(\.json))),
            ("waiting", .array(waiting.map(\.json))),
            ("devices", .array(devices.map { state in
                .object([
                    ("device", .string(state.device.rawValue)), ("applied_position", .integer(state.appliedPosition)),
                    ("hub_position", state.hubPosition.map { .integer($0) } ?? .null),
                ])
            })),
        ])
    }
}
