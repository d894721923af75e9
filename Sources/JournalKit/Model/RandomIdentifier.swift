/// Random version 4 UUIDs, lowercase, from the system's random source (getrandom): drink and device ids.
public enum RandomIdentifier {
    public static func uuid() -> String {
        var random = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            var word = random.next()
            for _ in 0..<8 {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return format(bytes)
    }

    /// The canonical lowercase form of a UUID written in any case, or nil when it is not one.
    public static func normalizedUUID(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var nibbles: [UInt8] = []
        var position = 0
        for unit in text.utf8 {
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard unit == UInt8(ascii: "-") else { return nil }
            } else {
                guard let value = hexValue(unit) else { return nil }
                nibbles.append(value)
                if nibbles.count == 2 {
                    bytes.append(nibbles[0] << 4 | nibbles[1])
                    nibbles.removeAll(keepingCapacity: true)
                }
            }
            position += 1
        }
        guard position == 36, bytes.count == 16 else { return nil }
        return format(bytes)
    }

    private static func hexValue(_ unit: UInt8) -> UInt8? {
        switch unit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return unit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return unit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return unit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func format(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        var index = 0
        while index < bytes.count {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(bytes[index] >> 4)])
            text.append(digits[Int(bytes[index] & 0x0F)])
            index += 1
        }
        return String(decoding: text, as: UTF8.self)
    }
}
