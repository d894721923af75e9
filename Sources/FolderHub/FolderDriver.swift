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
    public var nameForm: String { "PATH or file:///PATH" }

    public func place(named name: String, access: HubAccess) throws -> any HubPlace {
        FolderPlace(folder: try Self.folder(named: name))
    }

    /// A revoked device keeps what it copied; the new key is all a folder needs.
    public func stepsAfterRevoking(deviceName: String) -> String? { nil }

    /// The folder a path or a `file:` URL names: a URL's path, its %-escapes decoded; its host empty or
    /// "localhost" (RFC 8089).
    static func folder(named name: String) throws(HubNameError) -> String {
        guard HubName.scheme(of: name) == "file" else { return name }
        guard let url = URL(string: name) else { throw HubNameError.notALocalFolder(name: name) }
        let host = (url.host(percentEncoded: false) ?? "").lowercased()
        guard host.isEmpty || host == "localhost" else { throw HubNameError.notALocalFolder(name: name) }
        let path = url.path(percentEncoded: false)
        guard path.hasPrefix("/"), !path.contains("\0") else { throw HubNameError.notALocalFolder(name: name) }
        return path
    }
}
