import JournalKit
import JournalSync

/// How a daemon learns of another device's change on a WebDAV server, which cannot push one: it lists
/// the hub's top (one PROPFIND, `Depth: 1`) and rings when a folder's fingerprint moved. Every change
/// moves one: a segment its device's folder, a card `cards/`, a key epoch `epochs/`, a new device the
/// top's own list. It lists every `activeInterval` while this device or another changed something in
/// the last `quietAfter`, and every `quietInterval` after, so a quiet day costs a request every 30 s.
struct DAVPoller: Sendable {
    static let activeInterval: Duration = .seconds(5)
    static let quietInterval: Duration = .seconds(30)
    static let quietAfter: Duration = .seconds(600)

    let hub: WebDAVHub
    let ownDevice: DeviceID
    let clock: any JournalClock

    /// Rings `sign` for each change seen until cancelled (returns) or the server cannot be listed
    /// (throws: the daemon tries again, and syncs once it lists again).
    func run(_ sign: @escaping @Sendable (DoorbellSign) -> Void) async throws {
        var seen = try await fingerprints()
        sign(.listening)
        var lastChange = ContinuousClock.now
        while !Task.isCancelled {
            let quiet = ContinuousClock.now - lastChange >= Self.quietAfter
            do { try await Task.sleep(for: quiet ? Self.quietInterval : Self.activeInterval) } catch { return }
            let now = try await fingerprints()
            let changed = Set(now.keys).union(seen.keys).filter { now[$0] != seen[$0] }
            seen = now
            guard !changed.isEmpty else { continue }
            lastChange = ContinuousClock.now
            let others = changed.subtracting([ownDevice.rawValue])
            guard !others.isEmpty else { continue }
            hub.state.with { $0.lastRing = clock.now() }
            let devices = others.filter(UUIDText.isCanonical)
            if devices.count == others.count, devices.count == 1, let device = devices.first {
                sign(.rang(device: DeviceID(rawValue: device)))
            } else {
                sign(.rang(device: nil))
            }
        }
    }

    /// Each member of the hub's top with its fingerprint; one that had not settled when listed gets a
    /// mark of its own, so that the next listing rings for it again (a second change within the same
    /// second leaves a time to the second as it was).
    private func fingerprints() async throws -> [String: String] {
        let top = try await hub.top(fresh: true)
        var prints: [String: String] = [:]
        for (name, entry) in top.members {
            prints[name] = top.isSettled(entry) ? entry.fingerprint : "unsettled " + entry.fingerprint + " " + UUIDText.random()
        }
        return prints
    }
}
