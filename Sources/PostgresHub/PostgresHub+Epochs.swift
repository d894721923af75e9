import JournalKit
import JournalSync
import PostgresNIO

/// Key epoch records on a PostgreSQL hub: rows of `journal_hub.epochs`, which the server keeps
/// append-only.
extension PostgresHub {
    public func epochList(after: KeyEpoch?, limit: Int) async throws -> [HubListing<KeyEpoch>] {
        if after == nil, limit == ListingPage.size, let epochs = firstEpochs {
            firstEpochs = nil
            return epochs
        }
        return try await call { connection in try await Self.epochList(connection, after: after, limit: limit) }
    }

    public func epochRecords(_ epochs: [KeyEpoch]) async throws -> [KeyEpoch: Result<[UInt8], SyncError>] {
        try await call { connection in try await Self.epochRecords(connection, epochs) }
    }

    /// The records past `after` in (number, id) order, `limit` at most (`epochColumns`, `epochNumbers`).
    static func epochList(_ connection: PostgresConnection, after: KeyEpoch?, limit: Int) async throws -> [HubListing<KeyEpoch>] {
        let (number, id) = (Int64(after?.number ?? 0), ByteBuffer(bytes: after?.id ?? KeyEpoch.first.id))
        let rows = try await connection.rows(
            """
            SELECT \(unescaped: epochColumns) FROM journal_hub.epochs
            WHERE \(unescaped: epochNumbers) AND (number, id) > (\(number), \(id))
            ORDER BY number, id LIMIT \(Int64(limit))
            """
        ) { try $0.decode((Int64, String, Int64, Int64).self) }
        return rows.compactMap { number, id, transaction, length in epoch(number: number, id: id, transaction: transaction, length: length) }
    }

    /// The records of `epochs`: a row larger than a record can be is refused without its bytes sent.
    static func epochRecords(_ connection: PostgresConnection, _ epochs: [KeyEpoch]) async throws -> [KeyEpoch: Result<[UInt8], SyncError>] {
        guard !epochs.isEmpty else { return [:] }
        let numbers = epochs.map { Int64($0.number) }
        let ids = epochs.map { Hex.encode($0.id) }
        let rows = try await connection.rows(
            """
            SELECT e.number, e.id, CASE WHEN octet_length(e.bytes) <= \(Int64(EpochRecord.maximumBytes)) THEN e.bytes END
            FROM journal_hub.epochs e JOIN unnest(\(numbers)::bigint[], \(ids)::text[]) AS wanted(number, id)
                ON e.number = wanted.number AND e.id = decode(wanted.id, 'hex')
            """
        ) { try $0.decode((Int64, ByteBuffer, ByteBuffer?).self) }
        var records: [KeyEpoch: Result<[UInt8], SyncError>] = [:]
        for (number, id, bytes) in rows {
            guard id.readableBytes == 16, let number = UInt32(exactly: number) else { continue }
            let epoch = KeyEpoch(number: number, id: Array(id.readableBytesView))
            records[epoch] = bytes.map { .success(Array($0.readableBytesView)) }
                ?? .failure(.unusableFile(hub: "the server's journal_hub.epochs", reason: "the record of key epoch \(epoch) is larger than a record can be"))
        }
        return records
    }

    /// Every record, in pages: for opening the hub with a key of a later epoch than its first.
    static func allEpochRecords(_ connection: PostgresConnection) async throws -> [KeyEpoch: Result<[UInt8], SyncError>] {
        var records: [KeyEpoch: Result<[UInt8], SyncError>] = [:]
        var after: KeyEpoch?
        while true {
            let page = try await epochList(connection, after: after, limit: 1000)
            guard let last = page.last else { return records }
            for start in stride(from: 0, to: page.count, by: 64) {
                records.merge(
                    try await epochRecords(connection, page[start..<min(start + 64, page.count)].map(\.name)), uniquingKeysWith: { first, _ in first })
            }
            after = last.name
        }
    }

    public func writeEpochRecord(_ bytes: [UInt8], as epoch: KeyEpoch) async throws {
        firstEpochs = nil
        try await call { connection in
            try await connection.query(
                """
                INSERT INTO journal_hub.epochs (number, id, bytes)
                VALUES (\(Int64(epoch.number)), \(ByteBuffer(bytes: epoch.id)), \(ByteBuffer(bytes: bytes)))
                """, logger: PostgresConnector.quiet)
        }
    }
}
