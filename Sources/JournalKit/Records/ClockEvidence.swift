/// What a batch of a device's records shows of its clock: a record the device stamped itself, further
/// ahead of this machine's clock than a clock may run (`HybridLogicalClock.maximumDrift`), means its
/// clock runs (or ran) ahead, and its changes win their merges until real time catches up.
///
/// A record stamped as the successor of a version in the same millisecond is passed over: an edit of a
/// record stamped in the future is stamped just after it by any device, whatever its clock reads.
/// Records the device relayed for others (`origin` another device) tell nothing of its clock.
struct ClockEvidence {
    let device: DeviceID
    let now: Timestamp
    /// A record of the device's own that tells of its clock was in the batch.
    private(set) var sawOwnRecords = false
    /// The furthest ahead of `now` the device stamped one of its own, in milliseconds, when beyond the bound.
    private(set) var aheadBy: Int64?

    init(device: DeviceID, now: Timestamp) {
        self.device = device
        self.now = now
    }

    mutating func note(_ version: RecordVersion, replacing replaced: RecordVersion?) {
        guard version.origin == device, replaced?.clock.milliseconds != version.clock.milliseconds else { return }
        sawOwnRecords = true
        guard HybridLogicalClock.isAhead(version.clock, of: now) else { return }
        aheadBy = max(aheadBy ?? 0, version.clock.milliseconds - now.milliseconds)
    }
}

/// A device whose own records came stamped further ahead of this machine's clock than a clock may run.
public struct ClockAhead: Sendable, Equatable {
    /// How far ahead of this machine's clock, when the records were applied.
    public let by: Duration
    /// When they were applied here.
    public let seenAt: Timestamp

    public init(by: Duration, seenAt: Timestamp) {
        self.by = by
        self.seenAt = seenAt
    }

    /// For a person, of the device named `name`: "pc's clock ran 3 years ahead of this machine's: ...".
    public func sentence(name: String) -> String {
        "\(name)'s clock ran \(ClockLeftBehind.span(by)) ahead of this machine's: the changes it stamped so (applied here on "
            + "\(LocalTime.display(seenAt))) win over edits made elsewhere until that time comes, unless edited again; once its clock "
            + "is right, journal there stamps by the clock again"
    }
}
