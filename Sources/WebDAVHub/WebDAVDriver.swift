import JournalSync

extension HubKind {
    /// A folder on a WebDAV server.
    public static let webdav = HubKind(rawValue: "webdav")
}

/// WebDAV hubs, named by `davs://USER@HOST/PATH` (`dav://` on this machine).
public struct WebDAVDriver: HubDriver {
    public init() {}

    public var kind: HubKind { .webdav }
    public var schemes: [String] { ["davs", "dav"] }
    public var nameForm: String { "davs://USER@HOST/PATH" }

    /// The URL names the same folder from every machine; each has its login in its own `.netrc`.
    public func nameOnAnotherMachine(location: String) -> String? { location }

    public func place(named name: String, isURL: Bool, access: HubAccess) throws -> any HubPlace {
        try WebDAVPlace(url: name, ask: access.askPassword, patience: access.patience)
    }

    /// The login a revoked machine had still opens the folder: change its password (or revoke its app
    /// password), which the new key cannot do.
    public func stepsAfterRevoking(deviceName: String) -> String? {
        "The server still lets \(deviceName) in with the login it has: change that login's password on the server, or, "
            + "where each machine has an app password of its own (Nextcloud: Settings, Security), revoke \(deviceName)'s, "
            + "and put the new one in ~/.netrc on the machines that stay."
    }
}
