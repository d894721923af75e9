import JournalKit
import JournalSync
import PostgresNIO

/// A hub on a PostgreSQL server: each device's log is its rows in `journal_hub.segments`, which the
/// server keeps append-only. The index of every log is read once per sync (`refresh`), in one round
/// trip when nothing changed, and segments are fetched several at a time; a segment's fingerprint is
/// its size (its bytes cannot change). Segments are never removed, so logs are not compacted.
public actor PostgresHub: Hub {
    public nonisolated let id: String
    public nonisolated let location: String
    nonisolated let connector: PostgresConnector
    private var link: PostgresLink?
    /// Each device's log as last read, and its (count, highest position) to tell when it changed.
    private var index: [DeviceID: (count: Int64, highest: Int64, segments: [SegmentEntry])] = [:]
    /// Segments fetched ahead of being asked for, by device.
    private var fetched: [DeviceID: [SegmentName: [UInt8]]] = [:]
    private var lastRing: Timestamp?

    /// The hub format this journal writes and reads: what `journal_hub.hub.format` says of the
    /// sealed segments' layout (its schema's version is the migrations').
    public static let format = 1

    /// Bytes fetched ahead at most in one round trip.
    static let fetchAheadBytes = 8 * 1024 * 1024

    init(id: String, connector: PostgresConnector, link: PostgresLink?) {
        self.id = id
        location = connector.location.uri
        self.connector = connector
        self.link = link
    }

    /// A hub dropped without `close()` still closes its connection (PostgresNIO requires it).
    deinit {
        if let link, !link.isClosed { link.connection.close().whenComplete { _ in } }
    }

    public nonisolated var canRemoveSegments: Bool { false }

    /// The connection, opened again when it was lost.
    func connected() async throws -> PostgresLink {
        if let link, !link.isClosed { return link }
        await link?.close()
        link = nil
        let opened = try await connector.connect()
        link = opened
        return opened
    }

    /// Runs `body` on the connection; a failure that lost it leaves none, to open anew next time.
    private func call<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let link = try await connected()
        do { return try await link.run(body) } catch {
            if link.isClosed { self.link = nil }
            throw error
        }
    }

    public func refresh() async throws {
        fetched = [:]
        let summary = try await call { connection in
            var summary: [(String, Int64, Int64)] = []
            let rows = try await connection.query(
                "SELECT device::text, count(*), max(last_position) FROM journal_hub.segments GROUP BY device",
                logger: PostgresConnector.quiet)
            for try await row in rows.decode((String, Int64, Int64).self) { summary.append(row) }
            return summary
        }
        var changed: [String] = []
        var seen: Set<DeviceID> = []
        for (device, count, highest) in summary {
            let id = DeviceID(rawValue: device)
            seen.insert(id)
            if let known = index[id], known.count == count, known.highest == highest { continue }
            index[id] = (count, highest, [])
            changed.append(device)
        }
        index = index.filter { seen.contains($0.key) }
        guard !changed.isEmpty else { return }
        let devices = changed
        let listed = try await call { connection in
            var listed: [(String, Int64, Int64, Int64)] = []
            let rows = try await connection.query(
                """
                SELECT device::text, first_position, last_position, octet_length(bytes) FROM journal_hub.segments
                WHERE device::text = ANY(\(devices)) ORDER BY device, first_position, last_position
                """, logger: PostgresConnector.quiet)
            for try await row in rows.decode((String, Int64, Int64, Int64).self) { listed.append(row) }
            return listed
        }
        for (device, first, last, size) in listed {
            index[DeviceID(rawValue: device)]?.segments.append(
                SegmentEntry(name: SegmentName(first: first, last: last), fingerprint: String(size)))
        }
    }

    public func devices() -> [DeviceID] {
        index.keys.filter { UUIDText.isCanonical($0.rawValue) }.sorted()
    }

    public func log(of device: DeviceID) -> DeviceLog {
        DeviceLog(segments: index[device]?.segments ?? [])
    }

    public func read(_ segment: SegmentName, of device: DeviceID) async throws -> [UInt8] {
        if let bytes = fetched[device]?.removeValue(forKey: segment) { return bytes }
        if let entry = index[device]?.segments.first(where: { $0.name == segment }), let size = Int(entry.fingerprint),
            size > SegmentName.maximumBytes
        {
            throw SyncError.unusableFile(hub: location, reason: "segment \(segment) of \(device) is \(size) bytes, more than a segment can be")
        }
        // This segment and those after it, up to `fetchAheadBytes`: a first sync reads a log in few round trips.
        let rows = try await call { connection in
            var rows: [(Int64, Int64, ByteBuffer)] = []
            let result = try await connection.query(
                """
                SELECT first_position, last_position, bytes FROM (
                    SELECT first_position, last_position, bytes,
                        sum(octet_length(bytes)) OVER (ORDER BY first_position, last_position) - octet_length(bytes) AS before
                    FROM journal_hub.segments
                    WHERE device::text = \(device.rawValue) AND first_position >= \(segment.first)
                        AND octet_length(bytes) <= \(Int64(SegmentName.maximumBytes))
                ) ahead WHERE before < \(Int64(Self.fetchAheadBytes)) ORDER BY first_position, last_position
                """, logger: PostgresConnector.quiet)
            for try await row in result.decode((Int64, Int64, ByteBuffer).self) { rows.append(row) }
            return rows
        }
        var found: [UInt8]?
        for (first, last, buffer) in rows {
            let name = SegmentName(first: first, last: last)
            let bytes = Array(buffer.readableBytesView)
            if name == segment { found = bytes } else { fetched[device, default: [:]][name] = bytes }
        }
        guard let found else { throw SyncError.unusableFile(hub: location, reason: "segment \(segment) of \(device) is not on the server") }
        return found
    }

    public func write(_ bytes: [UInt8], as segment: SegmentName, of device: DeviceID) async throws -> String {
        try await call { connection in
            do {
                try await connection.query(
                    """
                    INSERT INTO journal_hub.segments (device, first_position, last_position, bytes)
                    VALUES (\(device.rawValue)::uuid, \(segment.first), \(segment.last), \(ByteBuffer(bytes: bytes)))
                    """, logger: PostgresConnector.quiet)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                throw SyncError.segmentExists(segment.fileName)
            }
        }
        let entry = SegmentEntry(name: segment, fingerprint: String(bytes.count))
        var known = index[device] ?? (0, 0, [])
        known.segments.append(entry)
        known.segments.sort { $0.name < $1.name }
        index[device] = (known.count + 1, max(known.highest, segment.last), known.segments)
        return entry.fingerprint
    }

    public func remove(_ segment: SegmentName, of device: DeviceID) throws {
        throw SyncError.unsupported(hub: location, operation: "remove a segment", reason: "a PostgreSQL hub keeps every segment")
    }

    public func setAside(_ name: String, of device: DeviceID) throws {
        throw SyncError.unsupported(hub: location, operation: "set a file aside", reason: "a PostgreSQL hub keeps every segment")
    }

    /// A transaction leaves nothing half done.
    public func removeLeftovers(of device: DeviceID) {}

    public nonisolated var kind: HubKind { .postgres }

    /// The server's notifications after another device's segment commits (LISTEN, on a connection of
    /// its own).
    public nonisolated func changes(ownDevice: DeviceID, clock: any JournalClock) -> HubChanges {
        .notifications { [self] listening, rang in
            try await listen(ownDevice: ownDevice, clock: clock, listening: listening, rang: rang)
        }
    }

    public func describe() async -> HubDescription { HubDescription(facts: await facts(), rings: true) }

    /// Drops the schema made a moment ago, when no segment is in it yet.
    public func unmake() async {
        guard let link = try? await connector.connect() else { return }
        let id = self.id
        _ = try? await link.run { connection in
            try await connection.withTransaction(logger: PostgresConnector.quiet) { connection in
                var empty = false
                for try await none in try await connection.query(
                    "SELECT NOT EXISTS (SELECT 1 FROM journal_hub.segments) AND (SELECT hub_id FROM journal_hub.hub) = \(id)",
                    logger: PostgresConnector.quiet
                ).decode(Bool.self) {
                    empty = none
                }
                if empty { try await connection.query("DROP SCHEMA journal_hub CASCADE", logger: PostgresConnector.quiet) }
            }
        }
        await link.close()
    }

    private func facts() async -> [HubFact] {
        let location = connector.location
        var facts = [HubFact(label: "Server", key: "server", value: location.server)]
        guard let (version, tls) = try? await call({ connection in
            var result: (String, String)?
            let rows = try await connection.query(
                """
                SELECT current_setting('server_version'),
                    coalesce((SELECT CASE WHEN ssl THEN version || ', ' || cipher END FROM pg_stat_ssl WHERE pid = pg_backend_pid()), '')
                """, logger: PostgresConnector.quiet)
            for try await row in rows.decode((String, String).self) { result = row }
            return result ?? ("?", "")
        }) else { return facts }
        facts[0] = HubFact(label: "Server", key: "server", value: "\(location.server), PostgreSQL \(version)")
        let checked = switch PostgresTLS.effectiveMode(location) {
        case .verifyFull: "certificate and host name verified"
        case .verifyCA: "certificate verified, host name not"
        default: "certificate not verified"
        }
        facts.append(HubFact(
            label: "TLS", key: "tls",
            value: tls.isEmpty ? (location.isSocket ? "not used (Unix socket, on this machine)" : "not used: the connection is not encrypted")
                : "\(tls) (\(checked))"))
        return facts
    }

    public func lastNotification() -> Timestamp? { lastRing }

    /// Notes that the server rang.
    func rang(at instant: Timestamp) { lastRing = instant }

    public func close() async {
        await link?.close()
        link = nil
    }
}
