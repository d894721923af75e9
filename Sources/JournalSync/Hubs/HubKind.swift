/// A kind of hub, as the journal records which one it joined (`sync_hub.kind`). Each kind's module
/// names its own (`HubKind.folder` in FolderHub, `.postgres` in PostgresHub) and a program reaches the
/// kinds its `HubRegistry` lists, so a new kind adds nothing here. A journal joined to a kind this
/// program does not list is told so (`SyncError.unreachableKind`), not taken for another kind.
public struct HubKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}
