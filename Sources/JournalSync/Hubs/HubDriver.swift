/// One kind of hub as a program reaches it: the URL schemes that name it, and how a place of it is
/// found. A kind of hub is a module that provides one of these, and one line in the program's
/// `HubRegistry` (DESIGN.md, "A new kind of hub", says what else the module provides).
public protocol HubDriver: Sendable {
    /// The kind, as the journal records it.
    var kind: HubKind { get }
    /// The URL schemes that name a hub of this kind, lowercase ("postgresql", "postgres"). A name with
    /// no scheme at all is a path: the hub of the driver that has "file".
    var schemes: [String] { get }
    /// What a name of this kind looks like, for messages: "postgresql://USER@HOST/DATABASE".
    var nameForm: String { get }
    /// The name another machine joins the hub recorded here at `location` by, when it is the same
    /// there (a folder's path, on a share mounted alike); nil when each machine names it its own way
    /// (a server: its own role, password file, certificates, socket).
    func nameOnAnotherMachine(location: String) -> String?
    /// The place `name` names: with `isURL`, a URL of one of `schemes`; otherwise in this kind's own
    /// form, as the journal records it and as the kind's option of earlier releases takes it (a
    /// folder's path, whatever it reads like; a libpq connection string, a URL or `key=value` words).
    func place(named name: String, isURL: Bool, access: HubAccess) throws -> any HubPlace
    /// What is left for a person to do on the hub's storage after `deviceName` was revoked, beyond
    /// what the new key does (a server's role to take away); nil when nothing is.
    func stepsAfterRevoking(deviceName: String) -> String?
}

/// How a program reaches a hub: what it may ask a person, and how long it waits for a server.
public struct HubAccess: Sendable {
    /// How long a call to a hub's server may go on.
    public enum Patience: Sendable {
        /// As long as a sync's calls may (a first sync lists a large hub).
        case syncing
        /// A look that must answer soon whatever the server does (`sync status`): each call is
        /// bounded by the time allowed to connect.
        case glance
    }

    /// Asks a person for a password the files do not have, where one can be asked (`sync init` on a
    /// terminal); nil for the daemon and every later sync.
    public var askPassword: (@Sendable (String) -> String?)?
    public var patience: Patience

    public init(askPassword: (@Sendable (String) -> String?)? = nil, patience: Patience = .syncing) {
        self.askPassword = askPassword
        self.patience = patience
    }
}
