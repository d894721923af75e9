import JournalKit
import JournalSync
import NIOHTTP1

/// How the daemon learns of changes, what `sync status` says, and taking back a hub just made.
extension WebDAVHub {
    /// Polling: WebDAV has no push (`DAVPoller`).
    public func changes(ownDevice: DeviceID, clock: any JournalClock) -> HubChanges {
        let poller = DAVPoller(hub: self, ownDevice: ownDevice, clock: clock)
        return .notifications { sign in try await poller.run(sign) }
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
        facts.append(HubFact(
            label: "Polled", key: "polled",
            value: "every \(DAVPoller.activeInterval.components.seconds) s after a change, every \(DAVPoller.quietInterval.components.seconds) s when quiet"))
        return HubDescription(facts: facts, rings: true)
    }

    /// Takes back the hub's folder when nothing but hub.json is in it: another device that came
    /// meanwhile keeps what it wrote.
    public func unmake() async {
        _ = try? await delete(["hub.json"])
        if let top = try? await list([]), top.members.isEmpty { _ = try? await delete([], collection: true) }
    }

    /// Connections are the process's client's, kept between syncs.
    public func close() async {}
}
