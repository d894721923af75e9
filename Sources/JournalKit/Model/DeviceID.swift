/// The random identity a journal gets when it is created; the `origin` of the writes it makes.
public struct DeviceID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The device `text` names when it is a device id as the journal writes it (`UUIDText.isCanonical`);
    /// nil for any other text: a name on a hub, a server's row, a notification's payload.
    public init?(canonical text: String) {
        guard UUIDText.isCanonical(text) else { return nil }
        rawValue = text
    }

    public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}
