import FoundationEssentials
import JournalSync

extension HubKind {
    /// A folder every machine reaches: local, NFS, or copied by Syncthing or Dropbox.
    public static let folder = HubKind(rawValue: "folder")
}

/// Folder hubs, named by a path or a `file:` URL.
public struct FolderDriver: HubDriver {
    public init() {}

    public var kind: HubKind { .folder }
    public var schemes: [String] { ["file"] }
    public var nameForm: String { "PATH" }

    /// A share is most often mounted at one path on every machine.
    public func nameOnAnotherMachine(location: String) -> String? { location }

    public func place(named name: String, isURL: Bool, access: HubAccess) throws -> any HubPlace {
        FolderPlace(folder: isURL ? try Self.folder(url: name) : name)
    }

    /// A revoked device keeps what it copied; the new key is all a folder needs.
    public func stepsAfterRevoking(deviceName: String) -> String? { nil }

    /// The folder a `file:` URL names: its path, %-escapes decoded; its host empty or "localhost"
    /// (RFC 8089); no query or fragment, which no folder has.
    static func folder(url name: String) throws(HubNameError) -> String {
        guard let url = URL(string: name) else { throw HubNameError.notAFolderURL(name: name, problem: "is not a URL") }
        let host = (url.host(percentEncoded: false) ?? "").lowercased()
        guard host.isEmpty || host == "localhost" else { throw HubNameError.notALocalFolder(name: name) }
        guard url.query == nil, url.fragment == nil else { throw HubNameError.notAFolderURL(name: name, problem: "has a query or a fragment") }
        let path = url.path(percentEncoded: false)
        guard path.hasPrefix("/"), !path.contains("\0") else { throw HubNameError.notAFolderURL(name: name, problem: "has no path") }
        return path
    }
}
