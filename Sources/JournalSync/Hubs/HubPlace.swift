import JournalKit

/// Where a hub is, before it is opened: a folder, or a PostgreSQL server. Joining and opening go
/// through it, so that every kind of hub is joined, checked and undone the same way.
public protocol HubPlace: Sendable {
    /// The kind of hub there.
    var kind: HubKind { get }
    /// The place as the journal records and shows it: never holds a password.
    var location: String { get }
    /// True when the daemon reaches the hub over the network (its unit is given the network back).
    var needsNetwork: Bool { get }
    /// True when a new hub here can be shared between users by a group (`sync init --shared`: a
    /// folder's); a server's rights decide that on their own.
    var canBeSharedByGroup: Bool { get }
    /// The folder a new hub here would be made in, when that is missing: more often a typo than a
    /// wish, so `sync init` asks before making it. Nil when it is there, or the kind has none.
    func missingParent() async throws -> String?
    /// True when a hub is there.
    func hubExists() async throws -> Bool
    /// Opens the hub there, refusing a newer format or another hub's key before reading anything
    /// else; with `expecting`, a hub of another id as replaced.
    func open(key: SyncKey, expecting hubID: HubID?) async throws -> any Hub
    /// Makes a new, empty hub there for `key`.
    func make(key: SyncKey, shared: Bool) async throws -> any Hub
    /// Why a key given to join a hub here joins nothing: there is no hub here.
    func nothingToJoin() -> any Error
    /// What the owner of the hub's storage must run to bring it to what this journal knows, for a
    /// hub whose owner is not the journal (a server schema handed over to another role); nil when
    /// the hub is up to date or there is no such owner.
    func migrationScript() async throws -> String?
    /// What journal-syncd, a systemd user service that sees none of this shell's variables (its
    /// HOME aside), would not find as this command did, and what to do about it: said after `sync
    /// init`. Nil when it finds the same.
    func serviceWarning() -> String?
}

extension HubPlace {
    /// A kind that reads no variable of the shell's, or records what it read (`location`), has none.
    public func serviceWarning() -> String? { nil }
}
