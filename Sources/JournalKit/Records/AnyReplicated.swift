/// A replicated record of any kind, for what handles every kind alike: publishing, applying, coding.
/// Two are equal when they are one write of one record: its kind, key and version (the merge rule's
/// "equal versions are the same write").
public struct AnyReplicated: Sendable, Encodable, Equatable {
    public static func == (lhs: AnyReplicated, rhs: AnyReplicated) -> Bool {
        (lhs.kind, lhs.key, lhs.version, lhs.isDeleted) == (rhs.kind, rhs.key, rhs.version, rhs.isDeleted)
    }

    let base: any StoredRecord

    init<Payload: StoredPayload>(_ record: Replicated<Payload>) { base = record }

    public var kind: RecordKind { base.kind }
    public var key: String { base.key }
    public var isDeleted: Bool { base.isDeleted }
    public var version: RecordVersion { base.version }
    public var sequence: Int64 { base.sequence }
    /// The lowest segment format that carries the record (`ReplicatedPayload.segmentFormat`).
    public var segmentFormat: UInt8 { base.segmentFormat }

    public func encode(to encoder: any Encoder) throws { try base.encode(to: encoder) }

    /// The same record under another origin (a journal taking a new device id re-stamps its own).
    func restamped(origin: DeviceID) -> AnyReplicated { base.restamped(origin: origin) }

    /// Merges the record into the journal: whether it replaced the stored state, and that state's version.
    func merge(in context: inout WriteContext) throws -> Merge { try base.merge(in: &context) }

    func store(in context: inout WriteContext) throws { try base.store(in: &context) }

    /// True when the journal holds this record at its version or a newer one.
    func isHeld(in connection: SQLiteConnection) throws -> Bool { try base.isHeld(in: connection) }
}

/// What the store needs of a record of any kind; `Replicated` of every stored payload is one.
protocol StoredRecord: Sendable, Encodable {
    var kind: RecordKind { get }
    var key: String { get }
    var isDeleted: Bool { get }
    var version: RecordVersion { get }
    var sequence: Int64 { get }
    var segmentFormat: UInt8 { get }
    func validate() throws(InvalidRecordError)
    /// Merges the record into the journal: it replaces the stored state only when it supersedes it.
    func merge(in context: inout WriteContext) throws -> Merge
    /// Writes the record as it is, with the next sequence number.
    func store(in context: inout WriteContext) throws
    func restamped(origin: DeviceID) -> AnyReplicated
    func isHeld(in connection: SQLiteConnection) throws -> Bool
}

extension Replicated: StoredRecord where Payload: StoredPayload {
    var kind: RecordKind { Payload.kind }
    var key: String { payload.key }
    var segmentFormat: UInt8 { payload.segmentFormat }

    func merge(in context: inout WriteContext) throws -> Merge {
        context.receive(clock)
        let current = try Payload.table.find(key, in: context.connection)
        if let current, !supersedes(current) { return Merge(applied: false, replaced: current.version, revived: false) }
        try context.store(self)
        return Merge(applied: true, replaced: current?.version, revived: current?.isDeleted == true && !isDeleted)
    }

    func store(in context: inout WriteContext) throws { try context.store(self) }

    func isHeld(in connection: SQLiteConnection) throws -> Bool {
        guard let current = try Payload.table.find(key, in: connection) else { return false }
        return !supersedes(current)
    }

    func restamped(origin: DeviceID) -> AnyReplicated {
        var copy = self
        copy.origin = origin
        return AnyReplicated(copy)
    }
}

/// What merging a received record did.
struct Merge {
    /// It replaced the stored state: it was newer.
    let applied: Bool
    /// The version the journal held of the record before, if any.
    let replaced: RecordVersion?
    /// It brought back a record deleted here: another device changed it later than the deletion.
    let revived: Bool
}
