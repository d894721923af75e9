/// Unicode scalars and what each maps to, looked up where they are: in the text of a generated table
/// (`Tests/UnicodeTables/generate.py` writes them and says their format), sorted by scalar, by a
/// binary search over its lines. Nothing is read or built before a name beyond ASCII needs it, and a
/// lookup then reads a dozen lines, never the whole table.
struct ScalarMappingTable: Sendable {
    private let table: StaticString

    init(_ table: StaticString) {
        self.table = table
    }

    /// Appends what `scalar` maps to, or `scalar` itself when the table does not list it.
    func append(_ scalar: Unicode.Scalar, to text: inout String.UnicodeScalarView) {
        let value = scalar.value
        table.withUTF8Buffer { lines in
            guard let found = Self.lastLine(startingAtMost: value, in: lines) else { return text.append(scalar) }
            var index = found
            let first = Self.hexNumber(lines, &index)
            var count: UInt32 = 1
            if lines[index] == UInt8(ascii: "+") {
                index += 1
                count = Self.hexNumber(lines, &index)
            }
            guard value - first < count else { return text.append(scalar) }
            index += 1  // the colon
            if count > 1 {
                // A run: each scalar maps to the one as far from the target as it is from the first.
                return text.append(Unicode.Scalar(Self.hexNumber(lines, &index) + (value - first))!)
            }
            while index < lines.count, lines[index] != UInt8(ascii: "\n") {
                if lines[index] == UInt8(ascii: " ") { index += 1 }
                // The generator writes scalars only, never a surrogate.
                text.append(Unicode.Scalar(Self.hexNumber(lines, &index))!)
            }
        }
    }

    /// Where the last line whose first scalar is at most `value` starts; nil when the first line's is
    /// past it.
    private static func lastLine(startingAtMost value: UInt32, in lines: UnsafeBufferPointer<UInt8>) -> Int? {
        var start = 0
        guard !lines.isEmpty, hexNumber(lines, &start) <= value else { return nil }
        // `low` starts a line whose first scalar is at most `value`, `high` one past it (or the end).
        var (low, high) = (0, lines.count)
        while true {
            let middle = (low + high) / 2
            var line = middle
            while line > low, lines[line - 1] != UInt8(ascii: "\n") { line -= 1 }
            if line == low {
                // The middle is on `low`'s line: the next line, if it is before `high`, splits them.
                line = middle
                while line < high, lines[line] != UInt8(ascii: "\n") { line += 1 }
                line += 1
                guard line < high else { return low }
            }
            var index = line
            if hexNumber(lines, &index) <= value { low = line } else { high = line }
        }
    }

    /// The hexadecimal number at `index` (uppercase digits), and `index` moved past it.
    private static func hexNumber(_ lines: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> UInt32 {
        var value: UInt32 = 0
        while index < lines.count {
            let byte = lines[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(byte &- UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt32(byte &- UInt8(ascii: "A") &+ 10)
            default: return value
            }
            index += 1
        }
        return value
    }
}
