/// The devices of the hub, as their cards said.
extension JournalStore {
    /// Every device's card kept for the hub `hubID`, this device's own included, in device order.
    public func deviceCards(hubID: HubID) throws -> [DeviceCard] {
        try deviceCards(hubID: hubID, only: nil)
    }

    private func deviceCards(hubID: HubID, only device: DeviceID?) throws -> [DeviceCard] {
        try connection.query(
            """
            SELECT device_id, name, agreement_key, signing_key, epoch, written_at, published_at, synced_at, signed_from,
                vouches, admission, sealed_epoch, invitations, succeeds
            FROM sync_devices WHERE hub_id = ?1 AND (?2 IS NULL OR device_id = ?2) ORDER BY device_id
            """, [.text(hubID.rawValue), device.map { .text($0.rawValue) } ?? .null]
        ) { row in
            var card = DeviceCard(
                device: DeviceID(rawValue: row.text(0)), name: row.text(1), agreementKey: row.blob(2), signingKey: row.blob(3),
                epoch: row.int64(4), writtenAt: Timestamp(milliseconds: row.int64(5)),
                publishedAt: row.isNull(6) ? nil : Timestamp(milliseconds: row.int64(6)),
                syncedAt: row.isNull(7) ? nil : Timestamp(milliseconds: row.int64(7)), signedFrom: row.isNull(8) ? nil : row.int64(8),
                vouches: row.optionalText(9).map(CardColumns.vouches), admission: row.optionalText(10).flatMap(CardColumns.admission),
                invitations: row.optionalText(12).map(CardColumns.invitations), succeeds: row.optionalText(13).flatMap(CardColumns.succession))
            card.sealedEpoch = row.optionalText(11)
            return card
        }
    }

    /// The card kept for `device`, if any.
    public func deviceCard(of device: DeviceID, hubID: HubID) throws -> DeviceCard? {
        try deviceCards(hubID: hubID, only: device).first
    }

    /// Keeps `card` unless one written later is kept already (a card replayed, or read late); the same
    /// card read again updates where it was found (`sealedEpoch`). The keys are not changed here: the
    /// caller refuses a card whose keys differ from those known. Once a card said from where its device
    /// signs, that position never goes.
    public func keepDeviceCard(_ card: DeviceCard, hubID: HubID) throws {
        try keepDeviceCards([card], hubID: hubID)
    }

    /// Keeps each of `cards` as `keepDeviceCard` does, in one transaction; none is nothing to write.
    public func keepDeviceCards(_ cards: [DeviceCard], hubID: HubID) throws {
        guard !cards.isEmpty else { return }
        try connection.withoutWaitingForTheDisk {
            try write(nil) { _ in
                for card in cards {
                    try connection.run(
                        """
                        INSERT INTO sync_devices (hub_id, device_id, name, agreement_key, signing_key, epoch, written_at, published_at,
                            synced_at, signed_from, vouches, admission, sealed_epoch, invitations, succeeds)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
                        ON CONFLICT (hub_id, device_id) DO UPDATE SET name = excluded.name, epoch = excluded.epoch,
                            written_at = excluded.written_at, published_at = excluded.published_at, synced_at = excluded.synced_at,
                            signed_from = coalesce(min(sync_devices.signed_from, excluded.signed_from), sync_devices.signed_from,
                                excluded.signed_from),
                            vouches = excluded.vouches, admission = excluded.admission, invitations = excluded.invitations,
                            succeeds = excluded.succeeds,
                            sealed_epoch = coalesce(excluded.sealed_epoch, sync_devices.sealed_epoch)
                        WHERE excluded.written_at > sync_devices.written_at
                            OR (excluded.written_at = sync_devices.written_at AND excluded.sealed_epoch IS NOT sync_devices.sealed_epoch)
                        """,
                        .text(hubID.rawValue), .text(card.device.rawValue), .text(card.name), .blob(card.agreementKey), .blob(card.signingKey),
                        .integer(card.epoch), .integer(card.writtenAt.milliseconds), card.publishedAt.map { .integer($0.milliseconds) } ?? .null,
                        card.syncedAt.map { .integer($0.milliseconds) } ?? .null, card.signedFrom.map { .integer($0) } ?? .null,
                        card.vouches.map { .text(CardColumns.text(of: $0)) } ?? .null,
                        card.admission.map { .text(CardColumns.text(of: $0)) } ?? .null, card.sealedEpoch.map { .text($0) } ?? .null,
                        card.invitations.map { .text(CardColumns.text(of: $0)) } ?? .null,
                        card.succeeds.map { .text(CardColumns.text(of: $0)) } ?? .null)
                }
            }
        }
    }
}

/// How the lists a card holds are kept in `sync_devices`: lines of hexadecimal, readable with sqlite3.
enum CardColumns {
    static func text(of vouches: [DeviceCard.Vouch]) -> String {
        vouches.map { $0.device.rawValue + " " + Hex.encode($0.signingKey) }.joined(separator: "\n")
    }

    static func vouches(_ text: String) -> [DeviceCard.Vouch] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 2, let key = Hex.decode(Array(parts[1].utf8)) else { return nil }
            return DeviceCard.Vouch(device: DeviceID(rawValue: String(parts[0])), signingKey: key)
        }
    }

    static func text(of claims: [[UInt8]]) -> String { claims.map { Hex.encode($0) }.joined(separator: "\n") }

    static func invitations(_ text: String) -> [[UInt8]] { text.split(separator: "\n").compactMap { Hex.decode(Array($0.utf8)) } }

    static func text(of admission: DeviceCard.Admission) -> String {
        Hex.encode(admission.invitationKey) + " " + Hex.encode(admission.signature)
    }

    static func text(of succession: DeviceCard.Succession) -> String { succession.device.rawValue + " " + Hex.encode(succession.signature) }

    static func succession(_ text: String) -> DeviceCard.Succession? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let signature = Hex.decode(Array(parts[1].utf8)) else { return nil }
        return DeviceCard.Succession(device: DeviceID(rawValue: String(parts[0])), signature: signature)
    }

    static func admission(_ text: String) -> DeviceCard.Admission? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let key = Hex.decode(Array(parts[0].utf8)), let signature = Hex.decode(Array(parts[1].utf8)) else { return nil }
        return DeviceCard.Admission(invitationKey: key, signature: signature)
    }
}

extension JournalStore {
    /// The device this journal took over from (`journal sync new-device`), when it did.
    public func succeededDevice() throws -> DeviceID? {
        try connection.queryText("SELECT value FROM meta WHERE key = 'succeeds'").map(DeviceID.init(rawValue:))
    }
}
