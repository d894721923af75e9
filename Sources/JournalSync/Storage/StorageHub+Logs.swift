import JournalKit

/// The devices' logs: an object a segment, under `logs/<device-id>/`.
extension StorageHub {
    /// Lists every log afresh, in pages of the store's listing (compaction keeps them short), and
    /// rewrites any head owed since a segment was written.
    public func refresh(after positions: [DeviceID: Int64]) async throws {
        let prefix = Self.name("logs/")
        var listed: [DeviceID: [(name: String, object: StoredObject)]] = [:]
        for object in try await storage.listAll(prefix: prefix) {
            // A log is flat: a name deeper than `logs/<device>/<name>`, or one of parts no journal
            // writes, is none of the journal's and is left alone (setting it aside would read and
            // delete a name a store might take for another).
            guard let parts = StoredName.relative(object.name, to: prefix)?.split(separator: "/", omittingEmptySubsequences: false),
                parts.count == 2, let device = DeviceID(canonical: String(parts[0])), Self.isFlatName(parts[1])
            else { continue }
            listed[device, default: []].append((String(parts[1]), object))
        }
        // Both parts are checked byte for byte (a device id, a segment's name), so a segment's name
        // names its object.
        let logs = listed.mapValues { objects in
            DeviceLog(listing: objects, name: \.name) { .file(fingerprint: Self.fingerprint($0.object)) }
        }
        state.withLock {
            $0.logs = logs
            $0.listings = [:]
        }
        try await rewriteOwedHeads()
    }

    /// True for a name that can be an object's within a log: no "/", no "." or "..", nothing empty,
    /// no control character.
    static func isFlatName(_ name: Substring) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7f && $0 != "/" }
    }

    public func devices() async throws -> [DeviceID] { state.withLock { $0.logs.keys.sorted() } }

    public func log(of device: DeviceID) async throws -> DeviceLog { state.withLock { $0.logs[device] ?? DeviceLog() } }

    public func read(_ segment: SegmentName, of device: DeviceID) async throws -> [UInt8] {
        guard let bytes = try await storage.read(Self.segmentName(segment, of: device), limit: SegmentName.maximumBytes) else {
            // Listed a moment ago: its device merged it into a larger segment.
            throw SyncError.hub(HubFailure(.gone, hub: location, reason: "segment \(segment.fileName) of device \(device)", code: .httpStatus(404)))
        }
        return bytes
    }

    /// Creates the segment, then rewrites its device's head so that the others' looks see it. Once the
    /// segment is there the write has happened: a head that fails is rewritten at the next refresh.
    public func write(_ bytes: [UInt8], as segment: SegmentName, of device: DeviceID) async throws -> String {
        let name = Self.segmentName(segment, of: device)
        guard let tag = try await storage.createOrFindOwn(name, bytes) else {
            throw SyncError.segmentExists(segment.fileName, hub: location, code: .httpStatus(412))
        }
        await rewriteHead(Self.headName(device), saying: "\(segment.last)")
        return Self.fingerprint(StoredObject(name: name, size: Int64(bytes.count), tag: tag))
    }

    public func remove(_ segment: SegmentName, of device: DeviceID) async throws {
        try await storage.delete(Self.segmentName(segment, of: device))
    }

    /// Copies a name this device did not write to `set-aside/<device>/` (under a name of its own when
    /// one of that name is there), then removes it from the log.
    public func setAside(_ name: String, of device: DeviceID) async throws {
        let source = Self.logPrefix(device) + name
        guard let bytes = try await storage.read(source, limit: SegmentName.maximumBytes) else { return }
        var kept = false
        for attempt in 0..<3 where !kept {
            let target = Self.name("\(HubLayout.setAside)/\(device.rawValue)/") + name + (attempt == 0 ? "" : "." + UUIDText.random().prefix(8))
            kept = try await storage.create(target, bytes) != nil
        }
        guard kept else {
            throw SyncError.unusableFile(hub: location, reason: "\(name) could not be set aside: names for it are taken in set-aside/\(device)")
        }
        try await storage.delete(source)
    }

    /// Nothing is left half done: an object appears whole or not at all. Owed heads are rewritten, and
    /// this device's head is made to say its log's last position when it does not (a process whose
    /// head's rewrite failed ended before it was owed again).
    public func removeLeftovers(of device: DeviceID) async throws {
        try await rewriteOwedHeads()
        guard let highest = state.withLock({ $0.logs[device]?.highest }) else { return }
        let head = Self.headName(device)
        let says = try await storage.read(head, limit: 64).flatMap { Int64(String(decoding: $0, as: UTF8.self)) }
        if says != highest { try await storage.put(head, Array("\(highest)".utf8)) }
    }

    /// Rewrites the head `name` with `text`; a failure is remembered, and the head rewritten at the next
    /// refresh.
    func rewriteHead(_ name: String, saying text: String) async {
        do {
            try await storage.put(name, Array(text.utf8))
            _ = state.withLock { $0.owedHeads.remove(name) }
        } catch {
            _ = state.withLock { $0.owedHeads.insert(name) }
        }
    }

    private func rewriteOwedHeads() async throws {
        for name in state.withLock({ $0.owedHeads }) {
            try await storage.put(name, Array("owed".utf8))
            _ = state.withLock { $0.owedHeads.remove(name) }
        }
    }
}
