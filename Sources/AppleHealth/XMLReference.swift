/// The references XML defines without a DTD: the five predefined entities (`&lt;` `&gt;` `&amp;`
/// `&quot;` `&apos;`) and character references (`&#64;`, `&#x40;`). Any other `&name;` names an entity
/// that only a DTD declares, and no DTD is ever read: it is an error at its line, never expanded.
enum XMLReference {
    /// The longest name between `&` and `;` that can be one: `#1114111`, `#x10FFFF`.
    static let maximumLength = 8

    /// The character `name` (the bytes between `&` and `;`) stands for, or nil when it stands for none.
    static func scalar(_ name: [UInt8]) -> Unicode.Scalar? {
        switch name {
        case Array("lt".utf8): return "<"
        case Array("gt".utf8): return ">"
        case Array("amp".utf8): return "&"
        case Array("quot".utf8): return "\""
        case Array("apos".utf8): return "'"
        default: break
        }
        guard name.first == UInt8(ascii: "#") else { return nil }
        let hex = name.dropFirst().first == UInt8(ascii: "x")
        let digits = name.dropFirst(hex ? 2 : 1)
        guard !digits.isEmpty, let value = UInt32(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 10),
            digits.allSatisfy({ hex ? isHexDigit($0) : (48...57).contains($0) }), value != 0
        else { return nil }
        return Unicode.Scalar(value)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }
}
