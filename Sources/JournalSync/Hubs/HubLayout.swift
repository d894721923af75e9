import JournalKit

/// The names of a hub kept as named files (a folder, a WebDAV server, an object store), the same for
/// every such kind: the folder all of it is in, the folders of its records, and what a file's name
/// says. A kind puts them where its storage is and writes them its own way; what a name means is
/// decided here, once.
public enum HubLayout {
    /// The folder every name of a hub is in, named by its format's first version.
    public static let root = "journal-hub-v1"
    /// The hub's own description: its format, id and first key's check (`HubDescriptor`).
    public static let descriptor = "hub.json"
    /// The devices' cards, one each.
    public static let cards = "cards"
    /// The key epochs' records, one each.
    public static let epochs = "epochs"
    /// What a device found in its log but did not write, kept for a person to look at.
    public static let setAside = "set-aside"

    /// The name of `device`'s card in `cards`.
    public static func cardFileName(_ device: DeviceID) -> String { device.rawValue + ".card" }

    /// The device whose card `name` is; nil for any name a journal does not write there.
    public static func device(ofCard name: String) -> DeviceID? {
        guard name.hasSuffix(".card") else { return nil }
        return DeviceID(canonical: String(name.dropLast(".card".count)))
    }

    /// The key epoch whose record `name` is; nil for any other name, and for epoch 0, whose key the hub
    /// was made with and which has no record.
    public static func epoch(ofRecord name: String) -> KeyEpoch? {
        KeyEpoch(fileName: name).flatMap { $0.number > 0 ? $0 : nil }
    }

    /// True for a name that is a temporary, never a hub's file: a write in progress or one that died,
    /// a sync tool's, a server's. Every kind leaves such names out of its listings.
    public static func isTemporary(_ name: some StringProtocol) -> Bool { name.hasPrefix(".") }
}
