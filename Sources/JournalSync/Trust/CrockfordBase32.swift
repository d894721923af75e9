/// Crockford's base32, the alphabet of keys a person copies by hand: digits and capitals without I, L,
/// O and U, so that no two symbols look alike; read without regard to case, with I and L read as 1
/// and O as 0, the slips a person makes copying it.
enum CrockfordBase32 {
    static let symbols = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// The value of `symbol`, or nil for a character that is in no key.
    static func value(of symbol: UInt8) -> UInt8? {
        switch symbol {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return symbol - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return value(of: symbol - 32)
        case UInt8(ascii: "O"): return 0
        case UInt8(ascii: "I"), UInt8(ascii: "L"): return 1
        case UInt8(ascii: "U"): return nil
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt8(symbols.firstIndex(of: symbol)!)
        default: return nil
        }
    }

    /// `bytes` as 5-bit values, most significant bit first; the last value padded with zero bits.
    static func values(of bytes: some Collection<UInt8>) -> [UInt8] {
        var values: [UInt8] = []
        var buffer = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                values.append(UInt8((buffer >> bits) & 31))
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { values.append(UInt8((buffer << (5 - bits)) & 31)) }
        return values
    }

    /// The bytes 5-bit `values` hold; nil when the padding bits of the last value are not zero (so
    /// that each byte string has one spelling).
    static func bytes(of values: [UInt8], count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = 0, bits = 0
        for value in values {
            buffer = (buffer << 5) | Int(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((buffer >> bits) & 255))
            }
            buffer &= (1 << bits) - 1
        }
        guard bytes.count == count, buffer == 0 else { return nil }
        return bytes
    }
}
