import FoundationEssentials
import HTTPHubSupport
import JournalKit

/// An S3 hub's bucket and prefix, and the store that holds them, read from
/// `s3://BUCKET/PREFIX?endpoint=https://HOST[:PORT]&region=REGION&profile=NAME&sslrootcert=FILE`. Without
/// an endpoint the store is AWS's; with one (R2, Ceph, MinIO, Backblaze) it is reached path-style,
/// as every S3-compatible store answers. The URL never holds a secret: the journal records `uri`.
struct S3Location: Sendable, Equatable {
    let bucket: String
    /// The prefix the hub is made under, without a leading or trailing "/"; empty for the bucket's top.
    let prefix: String
    /// The store's server when the URL names one; nil for AWS's, which the region names.
    let endpoint: HTTPServer?
    /// The region the URL names; nil to take the one the environment or the profile says.
    let region: String?
    /// The profile of the AWS files the URL names; nil for `AWS_PROFILE`'s, or `default`.
    let profile: String?
    /// The certificate authorities to trust, a PEM file: the URL's `sslrootcert`; nil for the system's.
    var rootCertificate: String? = nil

    /// The URL as the journal records and shows it.
    var uri: String {
        var text = "s3://" + bucket + "/" + prefix.split(separator: "/").map { PercentEncoding.encoded(String($0)) }.joined(separator: "/")
        var query: [String] = []
        if let endpoint { query.append("endpoint=" + endpoint.url("")) }
        if let region { query.append("region=" + PercentEncoding.encoded(region)) }
        if let profile { query.append("profile=" + PercentEncoding.encoded(profile)) }
        if let root = rootCertificate { query.append("sslrootcert=" + PercentEncoding.encoded(root, keeping: ["/"])) }
        if !query.isEmpty { text += "?" + query.joined(separator: "&") }
        return text
    }

    /// The server requests go to, in `region`: the endpoint, or AWS's for the region (path-style, so
    /// that a bucket with dots in its name meets a certificate that fits).
    func server(region: String) -> HTTPServer {
        let server = endpoint ?? HTTPServer(secure: true, host: "s3.\(region).amazonaws.com", port: 443, rootCertificate: nil)
        return HTTPServer(secure: server.secure, host: server.host, port: server.port, rootCertificate: server.secure ? rootCertificate : nil)
    }

    /// The path of the object `name` (relative to the hub's prefix), %-encoded as S3 signs it; the
    /// bucket's own path ("/BUCKET/") for nil.
    func path(_ name: String?) -> String {
        let key = name.map { prefix.isEmpty ? $0 : prefix + "/" + $0 } ?? ""
        return "/" + bucket + "/" + key.split(separator: "/", omittingEmptySubsequences: false).map { PercentEncoding.encoded(String($0)) }.joined(separator: "/")
    }

    /// The key of `name`, relative to the hub's prefix, as a listing names it.
    func key(_ name: String) -> String { prefix.isEmpty ? name : prefix + "/" + name }

    /// Reads a hub's URL; refused with what to change.
    static func parse(_ text: String) throws(S3HubError) -> S3Location {
        // The URL as messages show it: its settings' values left out (one could be a secret typed there).
        let shown = text.firstIndex(of: "?").map { String(text[..<$0]) + "?…" } ?? text
        func refuse(_ problem: String) -> S3HubError { .badURL(url: shown, problem: problem) }
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "s3" else { throw refuse("it is not an s3:// URL") }
        guard components.user == nil, components.password == nil else { throw S3HubError.secretInURL }
        guard let bucket = components.host, !bucket.isEmpty else { throw refuse("it names no bucket") }
        guard (3...63).contains(bucket.count), bucket.allSatisfy({ ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "-" || $0 == "." }),
            bucket.first?.isLetter == true || bucket.first?.isNumber == true
        else { throw refuse("\(bucket) is no bucket's name (3 to 63 lowercase letters, digits, dots and hyphens)") }
        guard components.port == nil else { throw refuse("a port belongs in ?endpoint=") }
        guard components.fragment == nil else { throw refuse("it has a fragment (#...)") }
        var parts: [String] = []
        for part in components.percentEncodedPath.split(separator: "/") {
            guard let decoded = PercentEncoding.decoded(part), !decoded.isEmpty, decoded != ".", decoded != "..",
                decoded.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f && $0 != "/" })
            else { throw refuse("its prefix has a part that cannot be used (\(part))") }
            parts.append(decoded)
        }
        var endpoint: (secure: Bool, host: String, port: Int)?
        var region: String?, profile: String?, rootCertificate: String?
        for item in components.queryItems ?? [] {
            guard let value = item.value, !value.isEmpty else { throw refuse("\(item.name) has no value") }
            switch item.name {
            case "endpoint": endpoint = try parseEndpoint(value, refuse: refuse)
            case "region":
                guard isRegion(value) else { throw refuse("\(value) is no region") }
                region = value
            case "profile":
                guard isProfileName(value) else { throw refuse("\(value) is no profile's name") }
                profile = value
            case "sslrootcert": rootCertificate = FileSystem.absolute(value)
            default: throw refuse("\(item.name) is not a setting of an S3 hub; they are endpoint, region, profile and sslrootcert")
            }
        }
        if rootCertificate != nil, endpoint?.secure == false { throw refuse("sslrootcert is for an https:// endpoint") }
        let server = endpoint.map { HTTPServer(secure: $0.secure, host: $0.host, port: $0.port, rootCertificate: nil) }
        return S3Location(
            bucket: bucket, prefix: parts.joined(separator: "/"), endpoint: server, region: region, profile: profile, rootCertificate: rootCertificate)
    }

    /// True for what can be a profile's name: it goes into the recorded URL and a section's name.
    static func isProfileName(_ text: String) -> Bool {
        text.count <= 128 && text.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value != 0x7f && $0 != "]" && $0 != "[" }
    }

    /// True for what can be a region's name ("eu-west-1", "auto"): it goes into a host name.
    static func isRegion(_ text: String) -> Bool {
        (1...64).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }
    }

    /// `https://HOST[:PORT]`, or `http://` to this machine alone: a signature does not show the
    /// secret, but who syncs when, and the sealed bytes, would cross the network readable.
    static func parseEndpoint(_ value: String, refuse: (String) -> S3HubError) throws(S3HubError) -> (secure: Bool, host: String, port: Int) {
        guard let url = URLComponents(string: value), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            throw refuse("the endpoint is not an https:// URL")
        }
        guard url.user == nil, url.password == nil else { throw S3HubError.secretInURL }
        guard var host = url.host?.lowercased(), !host.isEmpty else { throw refuse("the endpoint names no host") }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        // Decoded from %-escapes by now: a name's letters, digits, dots, hyphens (and underscores), or an
        // IPv6 address's hex digits and colons, nothing that could end up raw in a Host header or a message.
        let isIPv6 = host.contains(":")
        guard host.unicodeScalars.allSatisfy({ scalar in
            isIPv6 ? scalar.properties.isASCIIHexDigit || scalar == ":" || scalar == "." : ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar)
        }) else { throw refuse("the endpoint's host cannot be used") }
        guard url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil else {
            throw refuse("the endpoint is a server alone (https://HOST[:PORT]); the bucket and prefix are the s3:// URL's")
        }
        let secure = scheme == "https"
        let port = url.port ?? (secure ? 443 : 80)
        guard (1...65535).contains(port) else { throw refuse("the endpoint's port is out of range") }
        guard secure || NetworkHost.isLoopback(host) else { throw S3HubError.plainTextElsewhere(endpoint: value) }
        return (secure, host, port)
    }
}
