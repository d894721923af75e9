import JournalKit
import JournalSync

/// The devices' logs: a collection each, a file a segment.
extension WebDAVHub {
    /// Lists the hub's top afresh: its devices' folders, and the fingerprints of every folder in it.
    public func refresh(after positions: [DeviceID: Int64]) async throws {
        _ = try await top(fresh: true)
    }

    /// The hub's top as last listed (listed now when `fresh`, or never yet); a hub whose folder is
    /// gone is unavailable, not empty.
    func top(fresh: Bool = false) async throws -> DAVListing {
        if !fresh, let top = state.with({ $0.top }) { return top }
        guard let listing = try await list([]) else {
            throw SyncError.hubUnavailable(hub: location, reason: "\(HubLayout.root) is not on the server (was the hub's folder moved?)")
        }
        state.with { $0.top = listing }
        return listing
    }

    public func devices() async throws -> [DeviceID] {
        try await top().members.values.filter(\.isCollection).compactMap { DeviceID(canonical: $0.name) }.sorted()
    }

    /// A device's log: listed again only when its folder's fingerprint in the top's listing changed
    /// (or had not settled when listed).
    public func log(of device: DeviceID) async throws -> DeviceLog {
        let top = try await top()
        guard let folder = top.members[device.rawValue], folder.isCollection else { return DeviceLog() }
        if let kept = state.with({ $0.logs[device] }), kept.fingerprint == folder.fingerprint { return kept.value }
        guard let listing = try await list([device.rawValue]) else { return DeviceLog() }
        let log = DeviceLog(listing: listing.members, name: \.key) { $0.value.isCollection ? .notAFile : .file(fingerprint: $0.value.fingerprint) }
        let settled = top.isSettled(folder)
        state.with { $0.logs[device] = settled ? DAVState.KeptListing(fingerprint: folder.fingerprint, value: log) : nil }
        return log
    }

    public func read(_ segment: SegmentName, of device: DeviceID) async throws -> [UInt8] {
        guard let bytes = try await get([device.rawValue, segment.fileName], limit: SegmentName.maximumBytes, what: "segment") else {
            // Listed a moment ago: its device merged it into a larger segment.
            throw SyncError.hub(HubFailure(.gone, hub: location, reason: "segment \(segment.fileName) of device \(device)", code: .httpStatus(404)))
        }
        return bytes
    }

    /// Claims the segment's name, then puts it; its fingerprint as the server lists it.
    public func write(_ bytes: [UInt8], as segment: SegmentName, of device: DeviceID) async throws -> String {
        try await ensureFolder([device.rawValue])
        try await ensureFolder([Self.claims])
        try await ensureFolder([Self.claims, device.rawValue])
        guard try await claim([Self.claims, device.rawValue, segment.fileName]) else {
            throw SyncError.segmentExists(segment.fileName, hub: location, code: .httpStatus(405))
        }
        let put: Bool
        do { put = try await self.put(bytes, at: [device.rawValue, segment.fileName], exclusive: true) } catch {
            // Nothing was written: the name is free again for the next try.
            _ = try? await delete([Self.claims, device.rawValue, segment.fileName], collection: true)
            throw error
        }
        guard put else { throw SyncError.segmentExists(segment.fileName, hub: location, code: .httpStatus(412)) }
        guard let entry = try await look([device.rawValue, segment.fileName]) else {
            throw SyncError.hub(HubFailure(.gone, hub: location, reason: "segment \(segment.fileName) of device \(device), just written", code: .httpStatus(404)))
        }
        return entry.fingerprint
    }

    /// Removes the segment, then its claim: the name can be written again.
    public func remove(_ segment: SegmentName, of device: DeviceID) async throws {
        try await delete([device.rawValue, segment.fileName])
        try await delete([Self.claims, device.rawValue, segment.fileName], collection: true)
    }

    /// Moves a file this device did not write to `set-aside/<device>/`, under a name of its own when
    /// one of that name is there already.
    public func setAside(_ name: String, of device: DeviceID) async throws {
        try await ensureFolder([HubLayout.setAside])
        try await ensureFolder([HubLayout.setAside, device.rawValue])
        let source = Self.inHub([device.rawValue, name])
        for attempt in 0..<3 {
            let target = name + (attempt == 0 ? "" : "." + UUIDText.random().prefix(8))
            let response = try await client.send(
                .MOVE, source, headers: [("Destination", server.url(Self.inHub([HubLayout.setAside, device.rawValue, target]), collection: false)), ("Overwrite", "F")])
            if response.succeeded || response.status == 404 {
                forgetTop()
                return
            }
            guard response.status == 412 else { throw failure(response, .MOVE, source) }
        }
        throw SyncError.unusableFile(hub: location, reason: "\(name) could not be set aside: names for it are taken in set-aside/\(device)")
    }

    /// Claims of segments that were never put (a process killed between the claim and the put, a
    /// server that failed the put): removed, so that the name can be written.
    public func removeLeftovers(of device: DeviceID) async throws {
        guard let claims = try await list([Self.claims, device.rawValue]), !claims.members.isEmpty else { return }
        let written = Set(try await list([device.rawValue])?.members.keys.map { $0 } ?? [])
        for name in claims.members.keys where !written.contains(name) {
            try await delete([Self.claims, device.rawValue, name], collection: true)
        }
    }
}
