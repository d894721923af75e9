/// Every kind of replicated record the journal keeps. A new kind is one more payload type here.
enum RecordKinds {
    static let stored: [any StoredPayload.Type] = [Drink.self, CustomDrink.self, Night.self, SyncedSetting.self]

    /// The last sequence number given out, in any table that shares the sequence, or the floor a
    /// restored journal keeps (`meta.sequence_floor`: the positions its device published before the
    /// backup was put back are taken on the hub). Made from the tables' names alone: each table's
    /// statements are made when first used, and `journal add` uses one table's.
    static let lastSequenceSQL =
        "SELECT max(" + stored.map { "coalesce((SELECT max(seq) FROM \($0.tableName)), 0)" }.concatenated(separator: ", ")
        + ", coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'sequence_floor'), 0))"
}

extension RecordKind {
    /// Every kind, in the order segments list them.
    public static var all: [RecordKind] { RecordKinds.stored.map { $0.kind } }

    /// Reads a list of records of this kind, one element of `container` each. A record that fails to
    /// read or breaks the rules is returned as its failure, so that it can be refused on its own.
    public func decodeRecords(from container: inout some UnkeyedDecodingContainer) throws -> [Result<AnyReplicated, any Error>] {
        guard let type = RecordKinds.stored.first(where: { $0.kind == self }) else { return [] }
        return try Self.decode(type, from: &container)
    }

    private static func decode<Payload: StoredPayload>(
        _ type: Payload.Type, from container: inout some UnkeyedDecodingContainer
    ) throws -> [Result<AnyReplicated, any Error>] {
        var records: [Result<AnyReplicated, any Error>] = []
        while !container.isAtEnd {
            // Decoding through a wrapper that never throws moves past a bad element too.
            let element = try container.decode(Attempt<Replicated<Payload>>.self)
            records.append(element.result.map(AnyReplicated.init))
        }
        return records
    }
}

/// Decodes a `Value`, keeping the error instead of throwing it.
private struct Attempt<Value: Decodable>: Decodable {
    let result: Result<Value, any Error>

    init(from decoder: any Decoder) throws {
        do { result = .success(try Value(from: decoder)) } catch { result = .failure(error) }
    }
}
