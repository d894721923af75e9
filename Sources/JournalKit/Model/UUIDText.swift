import FoundationEssentials

/// UUIDs as the journal writes them, lowercase: drink, device and hub ids.
public enum UUIDText {
    /// A new random (version 4) UUID.
    public static func random() -> String { UUID().uuidString.lowercased() }

    /// The canonical lowercase form of a UUID written in any case, or nil when `text` is not one.
    public static func canonical(_ text: String) -> String? { UUID(uuidString: text)?.uuidString.lowercased() }
}
