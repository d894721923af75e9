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

    /// Remembers an invitation this device printed, by its public key, with the claim its card makes of
    /// it, the key it was printed with (`keyCheck`) and when it expires.
    public func recordInvitation(
        publicKey: [UInt8], claim: [UInt8], at instant: Timestamp, expiresAt: Timestamp, keyCheck: String, hubID: HubID
    ) throws {
        try write(nil) { _ in
            try connection.run(
                "INSERT OR IGNORE INTO sync_invitations (hub_id, public_key, claim, made_at, expires_at, key_check) VALUES (?, ?, ?, ?, ?, ?)",
                .text(hubID.rawValue), .blob(publicKey), .blob(claim), .integer(instant.milliseconds), .integer(expiresAt.milliseconds),
                .text(keyCheck))
        }
    }

    /// The invitations this device printed for the hub `hubID`, newest first.
    public func invitations(hubID: HubID) throws -> [Invitation] {
        try connection.query(
            """
            SELECT public_key, claim, made_at, used_by, expires_at, key_check, ended_at, ended_why
            FROM sync_invitations WHERE hub_id = ? ORDER BY made_at DESC, public_key
            """, [.text(hubID.rawValue)]
        ) {
            Invitation(
                publicKey: $0.blob(0), claim: $0.blob(1), madeAt: Timestamp(milliseconds: $0.int64(2)),
                usedBy: $0.optionalText(3).map(DeviceID.init(rawValue:)),
                expiresAt: $0.isNull(4) ? Timestamp(milliseconds: $0.int64(2)) + Invitation.lifetime : Timestamp(milliseconds: $0.int64(4)),
                keyCheck: $0.optionalText(5), endedAt: $0.isNull(6) ? nil : Timestamp(milliseconds: $0.int64(6)),
                ended: $0.optionalText(7).flatMap(Invitation.End.init(rawValue:)))
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

    /// Ends the invitations `publicKeys` (every open one when nil) for `why`, at `instant`; returns how
    /// many ended now. An invitation used or ended already stays as it is.
    @discardableResult
    public func endInvitations(_ publicKeys: [[UInt8]]?, why: Invitation.End, at instant: Timestamp, hubID: HubID) throws -> Int {
        try write(nil) { _ in
            let end = try connection.cached(
                """
                UPDATE sync_invitations SET ended_at = ?, ended_why = ?
                WHERE hub_id = ? AND used_by IS NULL AND ended_at IS NULL AND (? IS NULL OR public_key = ?)
                """)
            var ended = 0
            for key in publicKeys.map({ $0.map(SQLiteValue.blob) }) ?? [.null] {
                try end.run([.integer(instant.milliseconds), .text(why.rawValue), .text(hubID.rawValue), key, key])
                ended += Int(connection.changes)
            }
            return ended
        }
    }

    /// Ends the invitation `publicKey` because `devices` showed it (one of them is not the machine it was
    /// printed for), and keeps the note that says so, in one transaction: whichever card write found
    /// it, `journal sync` and `sync status` say it.
    public func endSharedInvitation(publicKey: [UInt8], note: SetAsideFile, hubID: HubID) throws {
        try write(nil) { _ in
            try connection.run(
                "UPDATE sync_invitations SET ended_at = ?, ended_why = 'shown-twice' WHERE hub_id = ? AND public_key = ? AND ended_at IS NULL",
                .integer(note.at.milliseconds), .text(hubID.rawValue), .blob(publicKey))
            try insertSetAside([note], hubID: hubID)
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

/// An invitation this device printed: its public key, the claim its card makes of it, when, the
/// device that joined with it, and when it ends.
public struct Invitation: Sendable, Equatable {
    public let publicKey: [UInt8]
    public let claim: [UInt8]
    public let madeAt: Timestamp
    public let usedBy: DeviceID?
    /// After this, a device that shows it is not vouched for.
    public let expiresAt: Timestamp
    /// The check of the key it was printed with; nil for one an earlier journal printed.
    public let keyCheck: String?
    public let endedAt: Timestamp?
    public let ended: End?

    /// Why an invitation ended before it was used or expired.
    public enum End: String, Sendable {
        case withdrawn
        /// Two devices showed it: one of them is not the machine it was printed for.
        case shownTwice = "shown-twice"
        /// The hub's key was replaced since it was printed (a leak is why keys are replaced).
        case keyReplaced = "key-replaced"
    }

    /// How long an invitation lasts unless `journal sync key --expires` says otherwise.
    public static let lifetime: Duration = .seconds(7 * 86_400)

    public init(
        publicKey: [UInt8], claim: [UInt8], madeAt: Timestamp, usedBy: DeviceID?, expiresAt: Timestamp, keyCheck: String?,
        endedAt: Timestamp? = nil, ended: End? = nil
    ) {
        self.publicKey = publicKey
        self.claim = claim
        self.madeAt = madeAt
        self.usedBy = usedBy
        self.expiresAt = expiresAt
        self.keyCheck = keyCheck
        self.endedAt = endedAt
        self.ended = ended
    }

    /// Its identifier as `journal sync invitations` lists it: the start of its public key.
    public var id: String { Hex.encode(publicKey.prefix(4)) }

    /// True when a device that shows it at `now` is vouched for: not used, not ended, not expired, and
    /// printed with the key held now (`currentKeyCheck`).
    public func isOpen(at now: Timestamp, currentKeyCheck: String) -> Bool {
        usedBy == nil && ended == nil && now < expiresAt && (keyCheck == nil || keyCheck == currentKeyCheck)
    }
}
