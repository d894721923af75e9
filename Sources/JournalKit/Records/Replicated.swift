/// The whole state of one record that syncs (a drink, a custom drink): what it holds, whether it is
/// deleted (a tombstone, kept so that the deletion syncs too), the version of its last write, and its
/// place in this journal's change sequence. `Payload` is left unconstrained here and constrained where
/// it is used (as `RecordTable`'s): the metadata of a generic type with a requirement is made by
/// finding the conformance, a scan of every conformance in the binary, on every `journal add`.
public struct Replicated<Payload> {
    public var payload: Payload
    public var isDeleted: Bool
    /// The hybrid logical clock reading of the last write.
    public var clock: HybridTimestamp
    /// The device that made the last write.
    public var origin: DeviceID
    /// The local change sequence number of the last write to this row; what an `Anchor` counts. It is
    /// this journal's own bookkeeping and never leaves it.
    public var sequence: Int64

    public init(payload: Payload, isDeleted: Bool, clock: HybridTimestamp, origin: DeviceID, sequence: Int64) {
        self.payload = payload
        self.isDeleted = isDeleted
        self.clock = clock
        self.origin = origin
        self.sequence = sequence
    }

    public var version: RecordVersion { RecordVersion(clock: clock, origin: origin) }

    /// The merge rule, the one place sync decides between two states of one record: the later write
    /// wins. Equal versions are the same write, so a record delivered again changes nothing.
    public func supersedes(_ other: Replicated<Payload>) -> Bool { version > other.version }
}

extension Replicated: Equatable where Payload: Equatable {}
extension Replicated: Hashable where Payload: Hashable {}
extension Replicated: Sendable where Payload: Sendable {}

extension Replicated where Payload: ReplicatedPayload {
    /// Checks the record as every way in checks it; a peer's record that fails is refused.
    public func validate() throws(InvalidRecordError) {
        try payload.validate()
        guard HybridTimestamp.isPlausible(clock.rawValue) else {
            throw InvalidRecordError(problem: "its clock reading \(clock.rawValue) is not one a real clock gives", kind: .badData)
        }
        if let occurredAt = payload.occurredAt { try EntryRules.check(time: occurredAt, writtenAt: clock) }
        guard UUIDText.isCanonical(origin.rawValue) else {
            throw InvalidRecordError(problem: "its device id is not a UUID", kind: .badData)
        }
    }
}

/// When a write was made and by whom: ordered by the hybrid clock, then by device id, so that any two
/// writes to one record are ordered the same way on every device.
public struct RecordVersion: Comparable, Hashable, Sendable {
    public let clock: HybridTimestamp
    public let origin: DeviceID

    public static func < (lhs: RecordVersion, rhs: RecordVersion) -> Bool {
        (lhs.clock, lhs.origin) < (rhs.clock, rhs.origin)
    }
}

/// A record that breaks the journal's rules: whichever way it came, it is refused.
public struct InvalidRecordError: JournalFailure, Equatable {
    /// What is wrong: "a note holds at most 1000 characters (this one has 2000)".
    public let problem: String
    public let kind: FailureKind
    public let remedy: Remedy?

    public init(problem: String, kind: FailureKind, remedy: Remedy? = nil) {
        self.problem = problem
        self.kind = kind
        self.remedy = remedy
    }

    public var description: String { problem }
}
