import EventLoopExecution
import JournalKit
import JournalSync
import NIOPosix
import NIOSSL
import PostgresNIO

/// A hub on a PostgreSQL server: each device's log is its rows in `journal_hub.segments`, which the
/// server keeps append-only. What is new on every log is listed once per sync (`refresh`), in one
/// statement by the table's index, and segments are fetched several at a time; a segment's
/// fingerprint is its size (its bytes cannot change). Segments are never removed, so logs are not
/// compacted.
public actor PostgresHub: Hub {
    public nonisolated let id: HubID
    public nonisolated let location: String
    public nonisolated let firstKeyCheck: String
    nonisolated let connector: PostgresConnector
    private var link: PostgresLink?
    /// Each device's log as the last refresh listed it.
    private var index: [DeviceID: DeviceLog] = [:]
    /// Segments fetched ahead of being asked for, by device.
    private var fetched: [DeviceID: [SegmentName: [UInt8]]] = [:]
    /// The first page of cards and of key epoch records, listed with the last whole refresh's logs
    /// (one statement, not three, for a sync with nothing to do); each given once, then asked for anew.
    var firstCards: [HubListing<DeviceID>]?
    var firstEpochs: [HubListing<KeyEpoch>]?
    private var lastRing: Timestamp?

    /// The hub format this journal writes and reads: what `journal_hub.hub.format` says of the
    /// sealed segments' layout (its schema's version is the migrations').
    public static let format = 1

    /// Bytes fetched ahead at most in one round trip.
    static let fetchAheadBytes = 8 * 1024 * 1024

    /// Where this actor and its tasks run: the event loop of its connection, not Swift's global
    /// executor (`EventLoopExecutor` says why). Its connection, opened again, stays on that loop, so
    /// a reply resumes the hub on the thread that read it.
    nonisolated let executor: EventLoopExecutor

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(id: HubID, firstKeyCheck: String, connector: PostgresConnector, link: PostgresLink?) {
        self.id = id
        self.firstKeyCheck = firstKeyCheck
        location = connector.location.uri
        self.connector = connector
        self.link = link
        executor = EventLoopExecutor(link?.channel.eventLoop ?? EventLoopExecutor.currentOrShared())
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
        let opened = try await connector.connect(on: executor.loop)
        link = opened
        return opened
    }

    /// Runs `body` on the connection; a failure that lost it leaves none, to open anew next time.
    func call<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let link = try await connected()
        do { return try await link.run(body) } catch {
            if link.isClosed { self.link = nil }
            throw error
        }
    }

    /// A server's rows are written once and never change or go.
    public nonisolated var segmentsNeverChange: Bool { true }

    /// Lists, in one statement, every device of the hub with the last position of its log, and the
    /// segments past `positions` of each: by the table's primary key (device, first position), so its
    /// cost follows the devices and what is new, not the table, which only grows. A device's own log
    /// that ends before what this journal verified of it (a replica that lost rows in a failover) is
    /// listed whole, so that what is missing is written again.
    public func refresh(after positions: [DeviceID: Int64]) async throws {
        try await refresh(after: positions, only: nil)
    }

    /// A fresh look at `only` these devices' logs: one probe each down the primary key, not a walk of
    /// every device.
    public func refresh(after positions: [DeviceID: Int64], only: Set<DeviceID>) async throws {
        try await refresh(after: positions, only: Optional(only))
    }

    private func refresh(after positions: [DeviceID: Int64], only: Set<DeviceID>?) async throws {
        var logs: [DeviceID: DeviceLog]
        if let only {
            // A ring's read: the named logs, and their new segments' bytes in the same round trip.
            let named = try await listLogs(of: only.sorted(), after: positions, fetchingAhead: true)
            (logs, fetched) = (named.logs, named.fetched)
            (firstCards, firstEpochs) = (nil, nil)
        } else {
            let listing = try await list(after: positions, firstPages: ListingPage.size)
            (logs, fetched) = (listing.logs, [:])
            (firstCards, firstEpochs) = (listing.cards, listing.epochs)
        }
        let lost = positions.filter { device, position in
            (only?.contains(device) ?? true) && (logs[device]?.highest ?? 0) < position && position > 0
        }
        if !lost.isEmpty {
            let whole = try await listLogs(of: lost.keys.sorted(), after: positions.mapValues { _ in 0 }, fetchingAhead: false).logs
            for device in lost.keys { logs[device] = whole[device] ?? DeviceLog() }
        }
        index = logs
    }

    public func devices() -> [DeviceID] {
        index.keys.filter { UUIDText.isCanonical($0.rawValue) }.sorted()
    }

    public func log(of device: DeviceID) -> DeviceLog {
        index[device] ?? DeviceLog()
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
            try await connection.rows(
                """
                SELECT first_position, last_position, bytes FROM (
                    SELECT first_position, last_position, bytes,
                        sum(octet_length(bytes)) OVER (ORDER BY first_position, last_position) - octet_length(bytes) AS before
                    FROM journal_hub.segments
                    WHERE device = \(device.rawValue)::uuid AND first_position >= \(segment.first)
                        AND octet_length(bytes) <= \(Int64(SegmentName.maximumBytes))
                ) ahead WHERE before < \(Int64(Self.fetchAheadBytes)) ORDER BY first_position, last_position
                """
            ) { try $0.decode((Int64, Int64, ByteBuffer).self) }
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
            } catch let error as PSQLError where SQLState(error) == .uniqueViolation {
                throw SyncError.segmentExists(segment.fileName, hub: self.location, code: SQLState.uniqueViolation.transportCode)
            }
        }
        let entry = SegmentEntry(name: segment, fingerprint: String(bytes.count))
        var known = index[device] ?? DeviceLog()
        known.segments.append(entry)
        known.segments.sort { $0.name < $1.name }
        index[device] = DeviceLog(
            segments: known.segments, listedAfter: known.listedAfter, highest: max(known.highest ?? 0, segment.last))
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
        .notifications { [self] sign in
            try await listen(ownDevice: ownDevice, clock: clock, sign: sign)
        }
    }

    /// Fails when the server does not answer a call in time (`CallLimit`), or at all.
    public func describe() async throws -> HubDescription {
        let facts = try await facts()
        let warnings = try await notificationsArrive() ? [] : [
            "notifications do not arrive: a pooler in transaction mode between this machine and the server? journal-syncd "
                + "syncs every \(DoorbellTest.pollInterval.components.seconds) s instead of at once. Connect to the server directly, "
                + "or through a pooler in session mode.",
        ]
        return HubDescription(facts: facts, warnings: warnings)
    }

    /// Drops the schema made a moment ago, when no segment is in it yet.
    public func unmake() async {
        guard let link = try? await connector.connect() else { return }
        let id = self.id
        _ = try? await link.run { connection in
            try await connection.withTransaction(logger: PostgresConnector.quiet) { connection in
                let empty = try await connection.rows(
                    "SELECT NOT EXISTS (SELECT 1 FROM journal_hub.segments) AND (SELECT hub_id FROM journal_hub.hub) = \(id.rawValue)"
                ) { try $0.decode(Bool.self) }.last ?? false
                if empty { try await connection.query("DROP SCHEMA journal_hub CASCADE", logger: PostgresConnector.quiet) }
            }
        }
        await link.close()
    }

    private func facts() async throws -> [HubFact] {
        let location = connector.location
        let version = try await call { connection in
            try await connection.rows("SELECT current_setting('server_version')") { try $0.decode(String.self) }.last ?? "?"
        }
        var facts = [HubFact(label: "Server", key: "server", value: "\(location.server), PostgreSQL \(version)")]
        // This connection's own TLS, from its channel: the server's pg_stat_ssl would describe a
        // pooler's link to the server, not this machine's to the pooler.
        var tls: TLSVersion?
        if let channel = link?.channel { tls = (try? await channel.nioSSL_tlsVersion().get()) ?? nil }
        let checked = switch PostgresTLS.effectiveMode(location) {
        case .verifyFull: "certificate and host name verified"
        case .verifyCA: "certificate verified, host name not"
        default: "certificate not verified"
        }
        facts.append(HubFact(
            label: "TLS", key: "tls",
            value: tls.map { "\(Self.name(of: $0)) (\(checked))" }
                ?? (location.isSocket ? "not used (Unix socket, on this machine)" : "not used: the connection is not encrypted")))
        return facts
    }

    /// A TLS version as OpenSSL and PostgreSQL name it.
    private static func name(of version: TLSVersion) -> String {
        switch version {
        case .tlsv1: "TLSv1"
        case .tlsv11: "TLSv1.1"
        case .tlsv12: "TLSv1.2"
        case .tlsv13: "TLSv1.3"
        }
    }

    public func lastNotification() -> Timestamp? { lastRing }

    /// Notes that the server rang.
    func rang(at instant: Timestamp) { lastRing = instant }

    public func close() async {
        await link?.close()
        link = nil
    }
}
