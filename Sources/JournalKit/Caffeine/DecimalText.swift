/// A number as a person or an export writes an amount: decimal digits with an optional fraction and
/// exponent (`64`, `62.5`, `.5`, `1e3`, `1.5e-05`, as JSON numbers are written back), and a leading
/// minus for a negative one. Swift's `Double(_:)` also takes hexadecimal (`0x40` is 64), `inf`, `nan`
/// and a plus sign, none of which is an amount anyone means: they are refused here, so that every
/// way a drink comes in reads the same text as the same number.
public enum DecimalText {
    /// The number `text` writes, or nil when it is not written as above. `-0` is -0.0, whose sign a
    /// caller can still see (and refuse as negative).
    public static func value(_ text: some StringProtocol) -> Double? {
        guard isDecimal(text.utf8) else { return nil }
        return Double(String(text))
    }

    /// True for `-? (digits (. digits*)? | . digits) ([eE] [+-]? digits)?`.
    static func isDecimal(_ bytes: some Collection<UInt8>) -> Bool {
        var index = bytes.startIndex
        func digits() -> Int {
            var count = 0
            while index != bytes.endIndex, (48...57).contains(bytes[index]) {
                count += 1
                index = bytes.index(after: index)
            }
            return count
        }
        func take(_ byte: UInt8) -> Bool {
            guard index != bytes.endIndex, bytes[index] == byte else { return false }
            index = bytes.index(after: index)
            return true
        }
        _ = take(UInt8(ascii: "-"))
        var mantissa = digits()
        if take(UInt8(ascii: ".")) { mantissa += digits() }
        guard mantissa > 0 else { return false }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            _ = take(UInt8(ascii: "+")) || take(UInt8(ascii: "-"))
            guard digits() > 0 else { return false }
        }
        return index == bytes.endIndex
    }
}
