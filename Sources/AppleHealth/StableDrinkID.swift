import JournalKit

/// The id a Health record's drink gets: the same for the same record in every export, so importing an
/// export again, or a later one that overlaps it, adds each record once. A UUID of version 8 (RFC 9562,
/// made by its own rule) from two 64-bit FNV-1a hashes of the record's identity.
enum StableDrinkID {
    private static let digits = Array("0123456789abcdef".utf8)

    static func id(for identity: String) -> DrinkID {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x6c62_272e_07bb_0142
        for byte in identity.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = second &+ (second << 7)
        }
        // Version 8 in the thirteenth digit, variant 10 in the seventeenth.
        let high = (first & 0xffff_ffff_ffff_0fff) | 0x0000_0000_0000_8000
        let low = (second & 0x3fff_ffff_ffff_ffff) | 0x8000_0000_0000_0000
        // 8-4-4-4-12 lowercase hexadecimal digits, written straight into the string: an export of a
        // million samples makes a million ids.
        let text = String(unsafeUninitializedCapacity: 36) { buffer in
            var at = 0
            for digit in 0..<32 {
                if digit == 8 || digit == 12 || digit == 16 || digit == 20 {
                    buffer[at] = UInt8(ascii: "-")
                    at += 1
                }
                let word = digit < 16 ? high : low
                buffer[at] = digits[Int((word >> UInt64(60 - 4 * (digit % 16))) & 0xF)]
                at += 1
            }
            return at
        }
        return DrinkID(rawValue: text)
    }
}
