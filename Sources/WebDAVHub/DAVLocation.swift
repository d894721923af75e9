import FoundationEssentials
import HTTPHubSupport
import JournalKit

/// A WebDAV hub's server and folder, read from `davs://USER@HOST:PORT/PATH?sslrootcert=FILE`
/// (`dav://` for a server on this machine only: without TLS, the password would cross the network as
/// it is typed). The journal records `uri`, which never holds a password.
struct DAVLocation: Sendable, Equatable {
    /// True for `davs` (HTTPS).
    let secure: Bool
    /// The login the URL names; nil when the credentials' file names it.
    let user: String?
    /// A host name or an IP address (an IPv6 one without its brackets), lowercase.
    let host: String
    let port: Int
    /// The folder the hub is made in, decoded, as components ("remote.php", "dav", "files", "alice").
    let folder: [String]
    /// The certificate authority to trust (a PEM file), in place of the system's.
    let rootCertificate: String?

    /// The server, as the requests reach it.
    var http: HTTPServer { HTTPServer(secure: secure, host: host, port: port, rootCertificate: rootCertificate) }

    /// True for this machine: "localhost", 127.0.0.0/8, ::1.
    var isLoopback: Bool { http.isLoopback }

    /// The server as messages name it: "cloud.example.org", "127.0.0.1:8080".
    var server: String { http.name }

    /// The URL as the journal records and shows it.
    var uri: String {
        var text = (secure ? "davs://" : "dav://") + (user.map { PercentEncoding.encoded($0) + "@" } ?? "") + server + "/"
        text += folder.map { PercentEncoding.encoded($0) }.joined(separator: "/")
        if let rootCertificate { text += "?sslrootcert=" + PercentEncoding.encoded(rootCertificate, keeping: ["/"]) }
        return text
    }

    /// The HTTP URL of `components` under the hub's folder; a collection's ends in "/".
    func url(_ components: [String], collection: Bool) -> String {
        http.url(path(components, collection: collection))
    }

    /// The path part of `url`, as a server's listing names it (escaped).
    func path(_ components: [String], collection: Bool) -> String {
        let all = folder + components
        return "/" + all.map { PercentEncoding.encoded($0) }.joined(separator: "/") + (collection && !all.isEmpty ? "/" : "")
    }

    /// Reads a hub's URL; refused with what to change.
    static func parse(_ text: String) throws(DAVHubError) -> DAVLocation {
        // The URL as messages show it: whatever stands before an "@" (a login, a password) left out.
        let shown = text.firstRange(of: "@").map { at in
            (text.firstRange(of: "://").map { String(text[..<$0.upperBound]) } ?? "") + "…" + String(text[at.lowerBound...])
        } ?? text
        func refuse(_ problem: String) -> DAVHubError { .badURL(url: shown, problem: problem) }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw refuse("it is not a URL")
        }
        guard scheme == "davs" || scheme == "dav" else { throw refuse("its scheme is not davs or dav") }
        guard components.password == nil else { throw DAVHubError.passwordInURL }
        guard let rawHost = components.percentEncodedHost, !rawHost.isEmpty else { throw refuse("it names no host") }
        guard var host = PercentEncoding.decoded(rawHost)?.lowercased() else { throw refuse("its host name cannot be used") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard host.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" && $0 != "@" }) else { throw refuse("its host name cannot be used") }
        guard components.fragment == nil else { throw refuse("it has a fragment (#...)") }
        var rootCertificate: String?
        for item in components.queryItems ?? [] {
            guard item.name == "sslrootcert", let value = item.value, !value.isEmpty else {
                throw refuse("\(item.name) is not a setting of a WebDAV hub; the one there is is sslrootcert=FILE")
            }
            rootCertificate = FileSystem.absolute(value)
        }
        let secure = scheme == "davs"
        var folder: [String] = []
        for part in components.percentEncodedPath.split(separator: "/") {
            guard let decoded = PercentEncoding.decoded(part), !decoded.isEmpty, decoded != ".", decoded != "..",
                !decoded.contains("/"), !decoded.contains("\0")
            else { throw refuse("its path has a part that cannot be a folder's name (\(part))") }
            folder.append(decoded)
        }
        let user = try components.percentEncodedUser.map { (encoded) throws(DAVHubError) -> String in
            guard let user = PercentEncoding.decoded(encoded), !user.isEmpty else { throw refuse("its user cannot be used") }
            return user
        }
        let location = DAVLocation(
            secure: secure, user: user, host: host, port: components.port ?? (secure ? 443 : 80), folder: folder, rootCertificate: rootCertificate)
        guard (1...65535).contains(location.port) else { throw refuse("its port is out of range") }
        if !secure {
            guard location.isLoopback else { throw DAVHubError.plainTextElsewhere(url: location.uri) }
            guard rootCertificate == nil else { throw refuse("sslrootcert is for davs://; dav:// has no TLS") }
        }
        return location
    }
}

/// Paths as a WebDAV server's listing names them.
enum DAVPath {
    /// The path an `href` names: an absolute URL's path, or a path; %-escapes decoded (either case),
    /// as components. Nil for one that does not decode to UTF-8.
    static func components(ofHref href: String) -> [String]? {
        var path = Substring(href)
        if !path.hasPrefix("/"), let scheme = path.firstRange(of: "://") {
            let afterHost = path[scheme.upperBound...]
            path = afterHost.firstIndex(of: "/").map { afterHost[$0...] } ?? "/"
        }
        var parts: [String] = []
        for part in path.split(separator: "/") {
            guard let decoded = PercentEncoding.decoded(part) else { return nil }
            parts.append(decoded)
        }
        return parts
    }
}
