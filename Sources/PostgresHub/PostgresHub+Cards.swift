import JournalKit
import JournalSync
import PostgresNIO

/// Device cards on a PostgreSQL hub: a row per device in `journal_hub.cards`, replaced in place.
extension PostgresHub {
    /// Cards past `after` by the primary key, `limit` rows at most (`cardColumns`).
    public func cardList(after: DeviceID?, limit: Int) async throws -> [HubListing<DeviceID>] {
        if after == nil, limit == ListingPage.size, let cards = firstCards {
            firstCards = nil
            return cards
        }
        let rows = try await call { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.cardColumns) FROM journal_hub.cards
                WHERE device > \(after?.rawValue ?? Self.lowestDevice)::uuid OR (\(after == nil) AND device = \(Self.lowestDevice)::uuid)
                ORDER BY device LIMIT \(Int64(limit))
                """
            ) { try $0.decode((String, Int64, Int64).self) }
        }
        return rows.compactMap { device, transaction, length in Self.card(device: device, transaction: transaction, length: length) }
    }

    /// The first device id in order, from which a listing starts.
    private static let lowestDevice = "00000000-0000-0000-0000-000000000000"

    public func cards(of devices: [DeviceID]) async throws -> [DeviceID: Result<[UInt8], SyncError>] {
        guard !devices.isEmpty else { return [:] }
        let ids = devices.map(\.rawValue)
        let rows = try await call { connection in
            // Larger rows than a card can be are refused by the table; the bound is here too, for a
            // server whose schema someone changed: such a row's bytes are not sent.
            try await connection.rows(
                """
                SELECT device::text, CASE WHEN octet_length(bytes) <= \(Int64(CardSeal.maximumBytes)) THEN bytes END
                FROM journal_hub.cards WHERE device = ANY(\(ids)::uuid[])
                """
            ) { try $0.decode((String, ByteBuffer?).self) }
        }
        var cards: [DeviceID: Result<[UInt8], SyncError>] = [:]
        for (row, bytes) in rows {
            guard let device = DeviceID(canonical: row) else { continue }
            cards[device] = bytes.map { .success(Array($0.readableBytesView)) }
                ?? .failure(.unusableFile(hub: location, reason: "the card row of \(device) is larger than a card can be"))
        }
        return cards
    }

    public func writeCard(_ bytes: [UInt8], of device: DeviceID) async throws {
        firstCards = nil
        try await call { connection in
            try await connection.query(
                """
                INSERT INTO journal_hub.cards (device, bytes) VALUES (\(device.rawValue)::uuid, \(ByteBuffer(bytes: bytes)))
                ON CONFLICT (device) DO UPDATE SET bytes = excluded.bytes, written_at = now()
                """, logger: PostgresConnector.quiet)
        }
    }
}
