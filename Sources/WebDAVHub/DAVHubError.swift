import JournalKit
import JournalSync

/// Why a WebDAV hub refused or could not be used, each with what to do about it. Never holds the
/// password. A server that is down, full (507), locked (423) or slow is no error of these: it is the
/// hub being unreachable (`SyncError.hubUnavailable`), which a later sync gets past.
public enum DAVHubError: JournalFailure, ServerRefusal, Equatable {
    case badURL(url: String, problem: String)
    case passwordInURL
    /// `dav://` to a server that is not this machine.
    case plainTextElsewhere(url: String)
    /// The server wants credentials and none were found (and none could be asked for).
    case credentialsRequired(server: String, looked: [String])
    /// The server refused the credentials (401); `source` is where they came from.
    case credentialsRefused(user: String, server: String, source: String)
    /// 403 on the hub's folder: the login may not read or write there.
    case forbidden(url: String)
    /// The folder the hub is to be made in is not on the server (409 on making it).
    case noSuchFolder(url: String)
    /// The server answered as no WebDAV server does (405 to PROPFIND, 501): WebDAV is not turned on there.
    case notWebDAV(url: String, status: Int)
    /// The server cannot create a name exclusively: making a folder that is there succeeded.
    case noExclusiveCreate(server: String, feature: String)
    /// Another machine made a hub in this folder while this one was making its own.
    case madeMeanwhile(url: String)
    /// The server refused a segment as too large (413): its upload limit is below a segment's size.
    case uploadTooLarge(server: String)
    /// The server answered with a redirect (3xx), which journal does not follow: a login would go with it.
    case redirected(url: String, status: Int)
    /// The server's listing names paths outside the folder the URL names (a proxy in front of it,
    /// a server that changes the case of names): nothing it lists could be found again.
    case listedElsewhere(url: String, href: String)

    public var kind: FailureKind {
        switch self {
        case .badURL, .passwordInURL, .plainTextElsewhere: .usage
        case .credentialsRequired, .credentialsRefused, .forbidden, .noSuchFolder, .notWebDAV, .noExclusiveCreate, .uploadTooLarge, .redirected, .listedElsewhere:
            .setup
        case .madeMeanwhile: .failure
        }
    }

    public var description: String {
        switch self {
        case .badURL(let url, let problem):
            return "the WebDAV hub's URL \(url) cannot be used: \(problem). It is davs://USER@HOST/PATH, with "
                + "?sslrootcert=FILE for a server whose certificate a private authority signed."
        case .passwordInURL:
            return "the URL holds a password; it would be kept in the journal and shown in messages. Leave it out: "
                + "journal reads it from ~/.netrc (machine HOST login USER password PASSWORD, chmod 600), or asks for it."
        case .plainTextElsewhere(let url):
            return "\(url) is dav://, without TLS, to a server that is not this machine: the password and who syncs when "
                + "would cross the network readable. Use davs://."
        case .credentialsRequired(let server, let looked):
            return "the server \(server) asks for a login, and none was found (looked in \(looked.joined(separator: ", "))). "
                + "Add a line to ~/.netrc: machine \(server.split(separator: ":").first ?? "") login USER password PASSWORD "
                + "(then chmod 600 ~/.netrc), or run `journal sync init` on a terminal to be asked."
        case .credentialsRefused(let user, let server, let source):
            return "the server \(server) refused the login \(user) (its password from \(source)). Correct it there; "
                + "a Nextcloud with two-factor sign-in needs an app password (Settings, Security). Nothing was written."
        case .forbidden(let url):
            return "the server refused access to \(url) (403 Forbidden): this login may not read or write there. "
                + "Choose a folder it owns, or have the server's administrator allow it."
        case .noSuchFolder(let url):
            return "the folder \(url) is not on the server (409 Conflict on making the hub in it). Check the path; "
                + "for Nextcloud it is remote.php/dav/files/USERID/FOLDER."
        case .notWebDAV(let url, let status):
            return "\(url) did not answer as a WebDAV server does (HTTP \(status) to PROPFIND): WebDAV is not turned on "
                + "there, or the path is not a WebDAV folder."
        case .noExclusiveCreate(let server, let feature):
            return "the server \(server) cannot create a name exclusively (\(feature)), which journal needs so that two "
                + "devices never write over each other. The empty folder \(HubLayout.root) it made is left there (on such a "
                + "server it could be another's): remove it. Use Apache mod_dav, nginx with dav-ext, Nextcloud or ownCloud."
        case .madeMeanwhile(let url):
            return "another machine made a hub in \(url) while this one was making its own; nothing of this one was kept."
        case .uploadTooLarge(let server):
            return "the server \(server) refused a segment as too large (413); a segment can be up to 32 MiB. Raise its "
                + "upload limit (nginx: client_max_body_size 0; Apache: LimitRequestBody 0). Nothing was lost."
        case .redirected(let url, let status):
            return "the server answered \(url) with a redirect (HTTP \(status)), which journal does not follow (the login "
                + "would go with it): name the URL it redirects to in `journal sync init --hub`. Nothing was lost."
        case .listedElsewhere(let url, let href):
            return "the server lists \(url) under another path (\(href)): a proxy in front of it, or a server that changes "
                + "the case of names. Name the folder as the server lists it. Nothing was written."
        }
    }

    public var remedy: Remedy? {
        switch self {
        case .madeMeanwhile: .joinWithKey
        case .passwordInURL, .credentialsRequired: .givePassword(orElse: "add a line `machine HOST login USER password PASSWORD` to ~/.netrc (mode 0600)")
        default: nil
        }
    }
}
