/// Bytes as lowercase hexadecimal text and back: keys, key checks, blobs in SQL results.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text` (either case), or nil when it is not an even number of hex digits.
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8?
        for unit in text {
            guard let value = nibble(unit) else { return nil }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }

    private static func nibble(_ unit: UInt8) -> UInt8? {
        switch unit {
        case 48...57: return unit - 48
        case 97...102: return unit - 87
        case 65...70: return unit - 55
        default: return nil
        }
    }
}
