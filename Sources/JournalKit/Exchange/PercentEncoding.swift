/// RFC 3986's percent-encoding, as the hubs' URLs use it (a PostgreSQL connection string, a WebDAV
/// hub's URL and the paths its server lists).
public enum PercentEncoding {
    /// `text` with every byte but the unreserved ones (letters, digits, `-._~`) and those in `keeping`
    /// (a path's "/" reads better as itself in a query value, where it is allowed) %-escaped.
    public static func encoded(_ text: String, keeping: Set<Character> = []) -> String {
        var encoded = ""
        for byte in text.utf8 {
            if byte < 0x80, keeping.contains(Character(UnicodeScalar(byte))) {
                encoded.unicodeScalars.append(UnicodeScalar(byte))
                continue
            }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return encoded
    }

    /// `text` with its %-escapes (either case) decoded; nil when an escape is malformed, or the bytes
    /// are not UTF-8 text (or hold a NUL) once decoded.
    public static func decoded<Text: StringProtocol>(_ text: Text) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self), !decoded.contains("\0") else { return nil }
        return decoded
    }
}
