import JournalKit
import JournalSync
import PostgresNIO

/// The anchored read of a PostgreSQL hub: what is new on the logs, and with a whole sync's read the
/// first page of cards and of key epoch records, so that a sync with nothing to do is one statement.
extension PostgresHub {
    /// What one listing statement found.
    struct Listing {
        var logs: [DeviceID: DeviceLog] = [:]
        /// The first page of cards and of key epoch records: nil unless asked for (`firstPages`).
        var cards: [HubListing<DeviceID>]?
        var epochs: [HubListing<KeyEpoch>]?
    }

    /// What the read of named logs found: the logs, and the bytes of their first new segments.
    struct NamedLogs {
        var logs: [DeviceID: DeviceLog] = [:]
        var fetched: [DeviceID: [SegmentName: [UInt8]]] = [:]
    }

    /// A card row's name, the transaction that last wrote it (a card is replaced in place) and its
    /// length, which the server gives without reading the bytes: a card's fingerprint (`fingerprint`).
    static let cardColumns = "device::text, xmin::text::bigint, octet_length(bytes)::bigint"
    /// A key epoch record's number, id (in hex), and the transaction that wrote it and its length: rows
    /// are never changed, so those two are its fingerprint.
    static let epochColumns = "number, encode(id, 'hex'), xmin::text::bigint, octet_length(bytes)::bigint"
    /// The rows whose number an epoch can have; others are left out.
    static let epochNumbers = "number BETWEEN 1 AND \(UInt32.max)"

    /// A row's fingerprint: the transaction that wrote it, and its length.
    static func fingerprint(transaction: Int64, length: Int64) -> String { "\(transaction):\(length)" }

    static func card(device: String, transaction: Int64, length: Int64) -> HubListing<DeviceID>? {
        guard let device = DeviceID(canonical: device) else { return nil }
        return HubListing(name: device, fingerprint: fingerprint(transaction: transaction, length: length))
    }

    static func epoch(number: Int64, id: String, transaction: Int64, length: Int64) -> HubListing<KeyEpoch>? {
        guard let id = Hex.decode(id.utf8), id.count == 16, let number = UInt32(exactly: number) else { return nil }
        return HubListing(name: KeyEpoch(number: number, id: id), fingerprint: fingerprint(transaction: transaction, length: length))
    }

    /// The logs of `devices`, listed past `positions`; `fetchingAhead`, with the bytes of their new
    /// segments too, up to `fetchAheadBytes` in all: a ring's read is then one round trip.
    func listLogs(of devices: [DeviceID], after positions: [DeviceID: Int64], fetchingAhead: Bool) async throws -> NamedLogs {
        let query = Self.listing(of: devices, after: positions, fetchingAhead: fetchingAhead)
        typealias Row = (String?, Int64?, Int64?, Int64?, Int64?, ByteBuffer?)
        let rows = try await call { connection in try await connection.rows(query) { try $0.decode(Row.self) } }
        var named = NamedLogs()
        for (name, highest, first, last, size, bytes) in rows {
            guard let name, let highest else { continue }
            let id = DeviceID(rawValue: name)
            if named.logs[id] == nil { named.logs[id] = DeviceLog(listedAfter: positions[id] ?? 0, highest: highest) }
            guard let first, let last, let size else { continue }
            let segment = SegmentName(first: first, last: last)
            named.logs[id]?.segments.append(SegmentEntry(name: segment, fingerprint: String(size)))
            // Kept only as the query asked for it: a server that sends more, or other bytes than the
            // size it listed, is read again through `read`, which refuses what is too large.
            if let bytes, bytes.readableBytes == size, size <= SegmentName.maximumBytes {
                named.fetched[id, default: [:]][segment] = Array(bytes.readableBytesView)
            }
        }
        return named
    }

    /// The logs of every device, listed past `positions`; with `firstPages`, the first that many cards
    /// and key epoch records too, in the same statement.
    func list(after positions: [DeviceID: Int64], firstPages: Int) async throws -> Listing {
        let query = Self.listing(after: positions, firstPages: firstPages)
        // Five columns, as the listing of logs alone had: a row's columns cost a client as much as the
        // server, and a first sync can list a million rows.
        typealias Row = (String?, Int64?, Int64?, Int64?, Int64?)
        let rows = try await call { connection in try await connection.rows(query) { try $0.decode(Row.self) } }
        var listing = Listing(cards: [], epochs: [])
        for (name, highest, first, last, size) in rows {
            guard let name else { continue }
            if let highest {
                let id = DeviceID(rawValue: name)
                if listing.logs[id] == nil { listing.logs[id] = DeviceLog(listedAfter: positions[id] ?? 0, highest: highest) }
                // Appended in place: a copy taken out and put back would copy the whole log at each row.
                if let first, let last, let size {
                    listing.logs[id]?.segments.append(SegmentEntry(name: SegmentName(first: first, last: last), fingerprint: String(size)))
                }
            } else if let transaction = first, let length = last {
                if let number = size {
                    if let epoch = Self.epoch(number: number, id: name, transaction: transaction, length: length) { listing.epochs?.append(epoch) }
                } else if let card = Self.card(device: name, transaction: transaction, length: length) {
                    listing.cards?.append(card)
                }
            }
        }
        // In key order, as a page is: the next page starts after its last.
        listing.cards?.sort { $0.name.rawValue < $1.name.rawValue }
        listing.epochs?.sort { $0.name < $1.name }
        return listing
    }

    /// The one statement of a sync's read: every device with the last position of its log, and the
    /// segments past `positions` of each; with `firstPages`, the first that many cards and key epoch
    /// records. Rows are (name, top, a, b, c): a log's row has its top (device, top, and a segment's
    /// first and last position and size, or none); a card's has none (device, -, transaction, length,
    /// -), nor has a record's (id in hex, -, transaction, length, number).
    ///
    /// The devices are walked down the primary key from the end, one probe each: the last entry
    /// below a device is the next device's newest segment, so one probe finds both the device and
    /// the top of its log. Each device's segments are a range of the key, bounded above by that top:
    /// the bound changes no answer (no segment starts past it), but gives the planner a range's
    /// estimate in place of a third of the table per device, which on a hub of a million rows made
    /// it plan the read as a costly one and compile it with JIT, 200-350 ms a sync. A device whose
    /// top is not past this journal's position for it is not probed again.
    static func listing(after positions: [DeviceID: Int64], firstPages: Int? = nil) -> PostgresQuery {
        let devices = positions.keys.map(\.rawValue)
        let floors = devices.map { positions[DeviceID(rawValue: $0)] ?? 0 }
        let pages = firstPages.map { limit in
            """
            UNION ALL
            SELECT c.device, NULL, c.transaction, c.length, NULL
            FROM (SELECT \(cardColumns) FROM journal_hub.cards ORDER BY device LIMIT \(limit)) c(device, transaction, length)
            UNION ALL
            SELECT e.id, NULL, e.transaction, e.length, e.number
            FROM (SELECT \(epochColumns) FROM journal_hub.epochs WHERE \(epochNumbers) ORDER BY number, id LIMIT \(limit))
                e(number, id, transaction, length)
            """
        } ?? ""
        return """
            WITH RECURSIVE tops(device, last_position) AS (
                (SELECT device, last_position FROM journal_hub.segments
                 ORDER BY device DESC, first_position DESC, last_position DESC LIMIT 1)
                UNION ALL
                SELECT below.device, below.last_position FROM tops t CROSS JOIN LATERAL (
                    SELECT s.device, s.last_position FROM journal_hub.segments s WHERE s.device < t.device
                    ORDER BY s.device DESC, s.first_position DESC, s.last_position DESC LIMIT 1
                ) below
            ), known(device, position) AS (SELECT * FROM unnest(\(devices)::uuid[], \(floors)::bigint[]))
            SELECT t.device::text AS name, t.last_position AS top_position, s.first_position, s.last_position, s.size
            FROM tops t
            LEFT JOIN known k ON k.device = t.device
            LEFT JOIN LATERAL (
                -- OFFSET 0 keeps this a range of the primary key for each device: pulled up into
                -- a join, it was planned as a scan of the whole table.
                SELECT first_position, last_position, octet_length(bytes)::bigint AS size FROM journal_hub.segments s
                WHERE s.device = t.device AND s.first_position > coalesce(k.position, 0)
                    AND s.first_position <= t.last_position
                    -- Of outer values only: the server tests it once per device, and a device with
                    -- nothing new (most of them, at every sync) costs no probe of the index at all.
                    AND t.last_position > coalesce(k.position, 0) OFFSET 0
            ) s ON true
            \(unescaped: pages)
            -- A log's segments in order (the rows of cards and records are put in order as read).
            ORDER BY name, first_position, last_position
            """
    }

    /// The same read of `devices`' logs alone: one probe of the primary key for each device's top,
    /// and a range of it for what lies past `positions`. A device with no log (a ring that named a
    /// device id no one published under) is not listed. `fetchingAhead`, each new segment's bytes
    /// come too while those before it, of every device listed, are under `fetchAheadBytes`, and it is
    /// no larger than a segment can be; else a sixth column of NULL.
    static func listing(of devices: [DeviceID], after positions: [DeviceID: Int64], fetchingAhead: Bool) -> PostgresQuery {
        let named = devices.filter { UUIDText.isCanonical($0.rawValue) }
        let ids = named.map(\.rawValue)
        let floors = named.map { positions[$0] ?? 0 }
        let bytes = fetchingAhead
            ? """
            CASE WHEN size <= \(SegmentName.maximumBytes) AND coalesce(sum(size) OVER (ORDER BY device, first_position, last_position
                ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) < \(fetchAheadBytes) THEN bytes END
            """
            : "NULL::bytea"
        return """
            WITH known(device, position) AS (SELECT * FROM unnest(\(ids)::uuid[], \(floors)::bigint[])),
            listed AS (
                SELECT k.device, t.last_position AS top, s.first_position, s.last_position, s.size, s.bytes
                FROM known k
                CROSS JOIN LATERAL (
                    SELECT last_position FROM journal_hub.segments WHERE device = k.device
                    ORDER BY device DESC, first_position DESC, last_position DESC LIMIT 1
                ) t
                LEFT JOIN LATERAL (
                    SELECT first_position, last_position, octet_length(bytes)::bigint AS size, bytes FROM journal_hub.segments s
                    WHERE s.device = k.device AND s.first_position > k.position AND s.first_position <= t.last_position
                        AND t.last_position > k.position OFFSET 0
                ) s ON true
            )
            SELECT device::text, top, first_position, last_position, size, \(unescaped: bytes)
            FROM listed
            ORDER BY device, first_position, last_position
            """
    }
}
