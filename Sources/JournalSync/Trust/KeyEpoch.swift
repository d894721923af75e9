import JournalKit

/// A key epoch of a hub: the span during which one key seals what devices publish. Epoch 0 is the key
/// the hub was made with; each rotation or revocation starts the next. Known by its number and a
/// random id, so that two epochs started at once from one parent are told apart.
public struct KeyEpoch: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let number: UInt32
    /// 16 random bytes; all zero for epoch 0.
    public let id: [UInt8]

    /// The hub's first epoch: the key it was made with.
    public static let first = KeyEpoch(number: 0, id: [UInt8](repeating: 0, count: 16))

    public init(number: UInt32, id: [UInt8]) {
        precondition(id.count == 16, "an epoch id is 16 bytes")
        self.number = number
        self.id = id
    }

    /// Of two epochs, the later is the one with the greater number, then the greater id: the rule
    /// every device applies the same way to pick the epoch new segments are sealed under.
    public static func < (lhs: KeyEpoch, rhs: KeyEpoch) -> Bool {
        lhs.number != rhs.number ? lhs.number < rhs.number : lhs.id.lexicographicallyPrecedes(rhs.id)
    }

    /// "3 (1f2e…)" for messages; epoch 0 is "0".
    public var description: String { number == 0 ? "0" : "\(number) (\(Hex.encode(id.prefix(4))))" }

    /// Big-endian number, then id: 20 bytes, as a segment's header carries it.
    var bytes: [UInt8] { [UInt8(number >> 24), UInt8(number >> 16 & 0xff), UInt8(number >> 8 & 0xff), UInt8(number & 0xff)] + id }

    /// "3-1f2e…" (number, then the id in hex): a record's name on a folder hub.
    public var fileName: String { text + ".epoch" }

    /// "3-1f2e…" (number, then the id in hex): how the journal keeps the epoch a card was sealed under.
    public var text: String { "\(number)-\(Hex.encode(id))" }

    /// The epoch `text` names; nil for any other text.
    public init?(text: String) { self.init(fileName: text + ".epoch") }

    /// The epoch a record's file name names; nil for any other name.
    public init?(fileName: String) {
        guard fileName.hasSuffix(".epoch") else { return nil }
        let parts = fileName.dropLast(".epoch".count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].allSatisfy(\.isASCII), let number = UInt32(parts[0]), String(number) == parts[0],
            let id = Hex.decode(Array(parts[1].utf8)), id.count == 16, Hex.encode(id) == parts[1]
        else { return nil }
        self.init(number: number, id: id)
    }

    init?(bytes: ArraySlice<UInt8>) {
        guard bytes.count == 20 else { return nil }
        let start = bytes.startIndex
        let number = bytes[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        self.init(number: number, id: Array(bytes[(start + 4)...]))
    }
}
