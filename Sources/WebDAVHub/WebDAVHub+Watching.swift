import JournalKit
import JournalSync
import NIOHTTP1

/// How the daemon learns of changes, what `sync status` says, and taking back a hub just made.
extension WebDAVHub {
    /// How often the daemon looks: the default schedule (5 s while active, 40 s when quiet).
    static let pollSchedule = PollSchedule()

    /// Polling: WebDAV has no push (`DAVTopLook`).
    public func changes(ownDevice: DeviceID, clock: any JournalClock) -> HubChanges {
        let top = DAVTopLook(hub: self, ownDevice: ownDevice, clock: clock)
        return .polls(HubPoll(schedule: Self.pollSchedule) { try await top.look() })
    }

    public func lastNotification() async -> Timestamp? { state.with { $0.lastRing } }

    /// The server (its `Server` header), how its certificate was checked, and how often it is polled.
    public func describe() async throws -> HubDescription {
        let response = try await client.send(.PROPFIND, Self.inHub([]), collection: true, headers: Self.propfindHeaders(depth: "0"), body: Self.propfindBody)
        guard response.status == 207 else { throw failure(response, .PROPFIND, Self.inHub([])) }
        var facts: [HubFact] = []
        if let software = response.headers.first(name: "Server") {
            facts.append(HubFact(label: "Server", key: "server", value: String(software.prefix(200))))
        }
        let tls: String
        if !server.secure {
            tls = "none (dav://, this machine only)"
        } else if let root = server.rootCertificate {
            tls = "certificate verified against \(root)"
        } else {
            tls = "certificate verified against the system's authorities"
        }
        facts.append(HubFact(label: "TLS", key: "tls", value: tls))
        facts.append(HubFact(label: "Polled", key: "polled", value: Self.pollSchedule.spoken))
        return HubDescription(facts: facts)
    }

    /// Takes back the hub's folder when nothing but hub.json is in it: another device that came
    /// meanwhile keeps what it wrote.
    public func unmake() async {
        _ = try? await delete([HubLayout.descriptor])
        if let top = try? await list([]), top.members.isEmpty { _ = try? await delete([], collection: true) }
    }

    /// Connections are the process's client's, kept between syncs.
    public func close() async {}
}
