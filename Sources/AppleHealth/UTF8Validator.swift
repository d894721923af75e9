/// Checks bytes that arrive in chunks are UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing
/// past U+10FFFF), a byte at a time, with no buffer: a sequence may be split between two chunks.
struct UTF8Validator {
    /// Continuation bytes the sequence in progress still needs.
    private(set) var remaining = 0
    /// Bounds of the next continuation byte: narrower than 80...BF right after some lead bytes.
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// Takes one byte of 0x80 or more (ASCII needs no check beyond `remaining` being 0): false when it
    /// cannot be where it is.
    mutating func accept(_ byte: UInt8) -> Bool {
        if remaining > 0 {
            guard byte >= lower, byte <= upper else { return false }
            remaining -= 1
            lower = 0x80
            upper = 0xBF
            return true
        }
        switch byte {
        case 0xC2...0xDF: remaining = 1
        case 0xE0: (remaining, lower) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE, 0xEF: remaining = 2
        case 0xED: (remaining, upper) = (2, 0x9F)
        case 0xF0: (remaining, lower) = (3, 0x90)
        case 0xF1...0xF3: remaining = 3
        case 0xF4: (remaining, upper) = (3, 0x8F)
        default: return false
        }
        return true
    }
}
