/// What two device names are compared by: names with the same key look alike to a person, whatever
/// their case, width, compatibility forms, script look-alikes or runs of spaces. "work laptop", "Work
/// Laptop", "ｗｏｒｋ ｌａｐｔｏｐ" and "wоrk laptop" (with a Cyrillic о) have one key: the skeleton
/// (Unicode TS #39, `skeleton(_:)`) of the name's NFKC_Casefold, with İ as i (`DotAboveI`) and spaces
/// trimmed and single. A key is for comparing, never for showing.
public struct DeviceNameKey: Hashable, Sendable {
    public let text: String

    public init(_ name: String) {
        let folded = DotAboveI.removed(from: NFKCCasefold.folded(name))
        text = skeleton(folded.split(whereSeparator: \.isWhitespace).concatenated(separator: " "))
    }
}
