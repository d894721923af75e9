import ArgumentParser
import JournalKit
import JournalSync

struct SyncStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "The hub, this device, what waits to go up, the last sync, and the devices seen.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let store = try await global.openStore()
        guard let joined = try await store.hub() else { throw SyncError.notJoined }
        let pending = try await store.unpublishedCount(hubID: joined.hubID)
        let anchors = try await store.anchors(hubID: joined.hubID)
        // What the hub offers, when it can be read; status still answers when it cannot.
        var available: [DeviceID: Int64] = [:]
        var hubProblem: String?
        do {
            let engine = try await SyncSetup.engine(for: store)
            for device in try engine.hub.devices() where device != store.deviceID {
                available[device] = try engine.hub.segments(of: device).last?.last ?? 0
            }
        } catch {
            hubProblem = failureMessage(error)
        }
        let devices = Set(anchors.keys).union(available.keys).sorted()
        let daemon = DaemonPresence.runningDaemon(databasePath: store.path)
        if output.json {
            Output.line(JSONValue.object([
                ("hub", .string(joined.location)), ("device", .string(store.deviceID.rawValue)),
                ("pending_changes", .number(Double(pending))),
                ("last_sync_at", joined.lastSyncAt.map { .string(LocalTime.iso8601($0)) } ?? .null),
                ("last_sync_result", .optional(joined.lastSyncResult)),
                ("daemon_running", .bool(daemon != nil)),
                ("daemon_pid", daemon.map { .number(Double($0)) } ?? .null),
                ("hub_problem", .optional(hubProblem)),
                ("devices", .array(devices.map { device in
                    .object([
                        ("device", .string(device.rawValue)), ("applied_position", .number(Double(anchors[device] ?? 0))),
                        ("hub_position", available[device].map { .number(Double($0)) } ?? .null),
                    ])
                })),
            ]).prettyText)
            return
        }
        Output.line("Hub          \(joined.location)")
        Output.line("This device  \(store.deviceID)")
        Output.line("Waiting      \(pending) change\(pending == 1 ? "" : "s") to publish")
        let last = joined.lastSyncAt.map { "\(LocalTime.display($0)): \(joined.lastSyncResult ?? "")" } ?? "never"
        Output.line("Last sync    \(last)")
        Output.line("Daemon       " + (daemon.map { "journal-syncd is running (pid \($0))" } ?? "not running; start it with systemctl --user enable --now journal-sync"))
        if let hubProblem { Output.line("Hub problem  \(hubProblem)") }
        guard !devices.isEmpty else { return Output.line("Other devices: none yet") }
        let rows = devices.map { device in
            [device.rawValue, String(anchors[device] ?? 0), available[device].map(String.init) ?? "?"]
        }
        Output.line("")
        Output.line(Output.table(["DEVICE", "APPLIED", "ON HUB"], rows))
    }
}
