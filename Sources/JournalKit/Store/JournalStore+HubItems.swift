/// What this journal remembers of the hub's cards and key epoch records between syncs, so that each is
/// read and checked once (`sync_hub_items`, `sync_epoch_records`), and the invitations it printed.
extension JournalStore {
    /// What the last sync that read them found of the hub's items of `kind`, by name: those named after
    /// `after` and up to `through` (in the names' order as text), or the one named `name`, or all of them.
    public func hubItems(
        _ kind: HubItem.Kind, hubID: HubID, after: String? = nil, through: String? = nil, only name: String? = nil
    ) throws -> [String: HubItem] {
        var items: [String: HubItem] = [:]
        for item in try connection.query(
            """
            SELECT name, fingerprint, outcome, reason, keys FROM sync_hub_items
            WHERE hub_id = ?1 AND kind = ?2 AND (?3 IS NULL OR name > ?3) AND (?4 IS NULL OR name <= ?4) AND (?5 IS NULL OR name = ?5)
            """,
            [.text(hubID.rawValue), .text(kind.rawValue), after.map { .text($0) } ?? .null, through.map { .text($0) } ?? .null, name.map { .text($0) } ?? .null],
            row: {
                HubItem(
                    kind: kind, name: $0.text(0), fingerprint: $0.text(1), outcome: HubItem.Outcome(rawValue: $0.text(2)) ?? .refused,
                    reason: $0.optionalText(3), keys: $0.optionalText(4))
            })
        {
            items[item.name] = item
        }
        return items
    }

    /// Remembers `items` (replacing what was remembered of the same names) and forgets `gone`, the
    /// names of `goneKind` no longer on the hub, in one transaction; nothing to write is nothing written.
    public func recordHubItems(_ items: [HubItem], forgetting gone: [String] = [], of goneKind: HubItem.Kind = .card, hubID: HubID) throws {
        guard !items.isEmpty || !gone.isEmpty else { return }
        try connection.withoutWaitingForTheDisk {
            try write(nil) { _ in
                let insert = try connection.cached(
                    """
                    INSERT OR REPLACE INTO sync_hub_items (hub_id, kind, name, fingerprint, outcome, reason, keys)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
                for item in items {
                    try insert.run([
                        .text(hubID.rawValue), .text(item.kind.rawValue), .text(item.name), .text(item.fingerprint), .text(item.outcome.rawValue),
                        item.reason.map { .text($0) } ?? .null, item.keys.map { .text($0) } ?? .null,
                    ])
                }
                let remove = try connection.cached("DELETE FROM sync_hub_items WHERE hub_id = ? AND kind = ? AND name = ?")
                for name in gone { try remove.run([.text(hubID.rawValue), .text(goneKind.rawValue), .text(name)]) }
            }
        }
    }

    /// The hub's items that were refused, for `journal sync status`.
    public func refusedHubItems(hubID: HubID) throws -> [HubItem] {
        try connection.query(
            "SELECT kind, name, fingerprint, outcome, reason, keys FROM sync_hub_items WHERE hub_id = ? AND outcome = 'refused' ORDER BY kind, name",
            [.text(hubID.rawValue)]
        ) {
            HubItem(
                kind: HubItem.Kind(rawValue: $0.text(0)) ?? .card, name: $0.text(1), fingerprint: $0.text(2), outcome: .refused,
                reason: $0.optionalText(4), keys: $0.optionalText(5))
        }
    }

    /// The key epoch records whose proof checked, by file name, as their bytes.
    public func epochRecordBytes(hubID: HubID) throws -> [String: [UInt8]] {
        var records: [String: [UInt8]] = [:]
        for (name, bytes) in try connection.query(
            "SELECT name, bytes FROM sync_epoch_records WHERE hub_id = ?", [.text(hubID.rawValue)], row: { ($0.text(0), $0.blob(1)) })
        {
            records[name] = bytes
        }
        return records
    }

    /// Keeps the bytes of key epoch records whose proof checked; a record kept already stays as it was
    /// (records never change: one that did on the hub is not its epoch's).
    public func keepEpochRecords(_ records: [String: [UInt8]], hubID: HubID) throws {
        guard !records.isEmpty else { return }
        try write(nil) { _ in
            let insert = try connection.cached("INSERT OR IGNORE INTO sync_epoch_records (hub_id, name, bytes) VALUES (?, ?, ?)")
            for (name, bytes) in records { try insert.run([.text(hubID.rawValue), .text(name), .blob(bytes)]) }
        }
    }

    /// Remembers an invitation this device printed, by its public key, with the claim its card makes of it.
    public func recordInvitation(publicKey: [UInt8], claim: [UInt8], at instant: Timestamp, hubID: HubID) throws {
        try write(nil) { _ in
            try connection.run(
                "INSERT OR IGNORE INTO sync_invitations (hub_id, public_key, claim, made_at) VALUES (?, ?, ?, ?)",
                .text(hubID.rawValue), .blob(publicKey), .blob(claim), .integer(instant.milliseconds))
        }
    }

    /// The invitations this device printed for the hub `hubID`, newest first.
    public func invitations(hubID: HubID) throws -> [Invitation] {
        try connection.query(
            "SELECT public_key, claim, made_at, used_by FROM sync_invitations WHERE hub_id = ? ORDER BY made_at DESC, public_key", [.text(hubID.rawValue)]
        ) {
            Invitation(
                publicKey: $0.blob(0), claim: $0.blob(1), madeAt: Timestamp(milliseconds: $0.int64(2)),
                usedBy: $0.optionalText(3).map(DeviceID.init(rawValue:)))
        }
    }

    /// Notes that `device` joined with the invitation `publicKey`: it is not honoured again.
    public func markInvitationUsed(publicKey: [UInt8], by device: DeviceID, hubID: HubID) throws {
        try write(nil) { _ in
            try connection.run(
                "UPDATE sync_invitations SET used_by = ? WHERE hub_id = ? AND public_key = ? AND used_by IS NULL",
                .text(device.rawValue), .text(hubID.rawValue), .blob(publicKey))
        }
    }

    /// The invitation this journal joined its hub with, as its cards show it; nil when it joined with
    /// the key alone.
    public func ownAdmission() throws -> DeviceCard.Admission? {
        try connection.queryText("SELECT admission FROM sync_hub").flatMap(CardColumns.admission)
    }

    /// What tells the device that printed the invitation this journal joined with (`Invitations.tag`);
    /// nil when it joined with the key alone.
    public func invitationTag() throws -> [UInt8]? {
        try connection.query("SELECT invitation_tag FROM sync_hub WHERE invitation_tag IS NOT NULL", []) { $0.blob(0) }.first
    }
}

/// A card or key epoch record on the hub, as a sync found it.
public struct HubItem: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case card, epoch
    }

    /// What came of reading it.
    public enum Outcome: String, Sendable {
        /// Opened and checked: a card kept, a record kept.
        case taken
        /// Not a card or record of this hub (junk, altered, another device's keys): said once, not read again
        /// until it changes.
        case refused
        /// Sealed under, or made from, a key epoch whose key this device did not hold: read again once it
        /// holds more keys (`keys`).
        case waiting
    }

    public let kind: Kind
    /// A device id for a card, an epoch's file name for a record.
    public let name: String
    public let fingerprint: String
    public let outcome: Outcome
    public let reason: String?
    /// For `waiting`: the epochs whose keys were held then.
    public let keys: String?

    public init(kind: Kind, name: String, fingerprint: String, outcome: Outcome, reason: String? = nil, keys: String? = nil) {
        self.kind = kind
        self.name = name
        self.fingerprint = fingerprint
        self.outcome = outcome
        self.reason = reason
        self.keys = keys
    }
}

/// An invitation this device printed: its public key, the claim its card makes of it, when, and the
/// device that joined with it.
public struct Invitation: Sendable, Equatable {
    public let publicKey: [UInt8]
    public let claim: [UInt8]
    public let madeAt: Timestamp
    public let usedBy: DeviceID?
}
