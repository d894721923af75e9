/// The devices of the hub, as their cards said.
extension JournalStore {
    /// Every device's card kept for the hub `hubID`, this device's own included, in device order.
    public func deviceCards(hubID: String) throws -> [DeviceCard] {
        try connection.query(
            """
            SELECT device_id, name, agreement_key, signing_key, epoch, written_at, published_at, synced_at
            FROM sync_devices WHERE hub_id = ? ORDER BY device_id
            """, [.text(hubID)]
        ) { row in
            DeviceCard(
                device: DeviceID(rawValue: row.text(0)), name: row.text(1), agreementKey: row.blob(2), signingKey: row.blob(3),
                epoch: row.int64(4), writtenAt: Timestamp(milliseconds: row.int64(5)),
                publishedAt: row.isNull(6) ? nil : Timestamp(milliseconds: row.int64(6)),
                syncedAt: row.isNull(7) ? nil : Timestamp(milliseconds: row.int64(7)))
        }
    }

    /// Keeps `card` unless one written later is kept already (a card replayed, or read late). The
    /// keys are not changed here: the caller refuses a card whose keys differ from those known.
    public func keepDeviceCard(_ card: DeviceCard, hubID: String) throws {
        try connection.withoutWaitingForTheDisk {
            try write(nil) { _ in
                try connection.run(
                    """
                    INSERT INTO sync_devices (hub_id, device_id, name, agreement_key, signing_key, epoch, written_at, published_at,
                        synced_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                    ON CONFLICT (hub_id, device_id) DO UPDATE SET name = excluded.name, epoch = excluded.epoch,
                        written_at = excluded.written_at, published_at = excluded.published_at, synced_at = excluded.synced_at
                    WHERE excluded.written_at > sync_devices.written_at
                    """,
                    .text(hubID), .text(card.device.rawValue), .text(card.name), .blob(card.agreementKey), .blob(card.signingKey),
                    .integer(card.epoch), .integer(card.writtenAt.milliseconds), card.publishedAt.map { .integer($0.milliseconds) } ?? .null,
                    card.syncedAt.map { .integer($0.milliseconds) } ?? .null)
            }
        }
    }
}
