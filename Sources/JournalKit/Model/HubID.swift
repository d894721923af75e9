/// A hub's own random id: what anchors, published ranges and every sync table are kept by, and what
/// each seal binds a segment, card or record to. Written as the hub wrote it, a UUID's text.
public struct HubID: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// A fixed id: a test's.
    public init(stringLiteral value: String) { rawValue = value }

    /// A new hub's id.
    public static func random() -> HubID { HubID(rawValue: UUIDText.random()) }

    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
