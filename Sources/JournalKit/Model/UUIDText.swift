import FoundationEssentials

/// UUIDs as the journal writes them, lowercase: drink, device and hub ids.
public enum UUIDText {
    /// A new random (version 4) UUID.
    public static func random() -> String { UUID().uuidString.lowercased() }

    /// The canonical lowercase form of a UUID written in any case, or nil when `text` is not one.
    public static func canonical(_ text: String) -> String? { UUID(uuidString: text)?.uuidString.lowercased() }

    /// True when `text` is a UUID as the journal writes it: `canonical(text) == text`, answered by
    /// looking at its bytes. Every record received is asked this twice (its id and its device), and
    /// parsing then printing a UUID (sscanf, snprintf) was a quarter of applying a segment.
    public static func isCanonical(_ text: String) -> Bool {
        guard text.utf8.count == 36 else { return false }
        return text.utf8.withContiguousStorageIfAvailable(isCanonical) ?? isCanonical(Array(text.utf8))
    }

    private static func isCanonical(_ bytes: some RandomAccessCollection<UInt8>) -> Bool {
        var index = 0
        for byte in bytes {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                if byte != 0x2D { return false }
            } else if !(byte >= 0x30 && byte <= 0x39) && !(byte >= 0x61 && byte <= 0x66) {
                return false
            }
            index += 1
        }
        return true
    }
}
