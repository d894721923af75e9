/// Unicode scalars and what each maps to, read from the text of a generated table
/// (`Tests/UnicodeTables/generate.py` writes them and says their format) the first time it is needed,
/// so that a program that only ever sees ASCII names never reads one.
struct ScalarMappingTable: Sendable {
    /// The scalars from `first` on, `count` of them: one (`count` 1) that maps to the `targetCount`
    /// scalars from `targets[target]`, or a run, each scalar of which maps to the one as far from
    /// `targets[target]` as it is from `first` (full-width A to Z, say).
    private struct Entry: Sendable {
        let first: UInt32
        let count: UInt32
        let target: Int
        let targetCount: Int
    }

    /// By `first`, ascending, as the table lists them.
    private let entries: [Entry]
    private let targets: [Unicode.Scalar]

    init(_ table: StaticString) {
        var entries: [Entry] = []
        var targets: [Unicode.Scalar] = []
        table.withUTF8Buffer { text in
            var index = 0
            func hexNumber() -> UInt32 {
                var value: UInt32 = 0
                while index < text.count, let digit = Self.hexDigit(text[index]) {
                    value = value << 4 | digit
                    index += 1
                }
                return value
            }
            while index < text.count {
                let first = hexNumber()
                var count: UInt32 = 1
                if text[index] == UInt8(ascii: "+") {
                    index += 1
                    count = hexNumber()
                }
                index += 1  // the colon
                let target = targets.count
                while index < text.count, text[index] != UInt8(ascii: "\n") {
                    if text[index] == UInt8(ascii: " ") { index += 1 }
                    // The generator writes scalars only, never a surrogate.
                    targets.append(Unicode.Scalar(hexNumber())!)
                }
                index += 1  // the line's end
                entries.append(Entry(first: first, count: count, target: target, targetCount: targets.count - target))
            }
        }
        self.entries = entries
        self.targets = targets
    }

    /// Appends what `scalar` maps to, or `scalar` itself when the table does not list it.
    func append(_ scalar: Unicode.Scalar, to text: inout String.UnicodeScalarView) {
        let value = scalar.value
        // The first entry that starts after `scalar`; the one before it is the only one that can hold it.
        var (low, high) = (0, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].first <= value { low = middle + 1 } else { high = middle }
        }
        guard low > 0, value - entries[low - 1].first < entries[low - 1].count else { return text.append(scalar) }
        let entry = entries[low - 1]
        if entry.count > 1 {
            text.append(Unicode.Scalar(targets[entry.target].value + (value - entry.first))!)
        } else {
            text.append(contentsOf: targets[entry.target..<entry.target + entry.targetCount])
        }
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
