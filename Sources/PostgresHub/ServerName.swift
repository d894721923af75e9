import Glibc

/// `sslmode=verify-full`'s check that a certificate is for the host the connection string names,
/// as libpq checks it (RFC 6125): a host name against the certificate's DNS names, an IP address
/// against its IP addresses, never one against the other; the common name only when the
/// certificate has no name of the host's kind. A DNS name may start with a wildcard that stands for
/// one whole left-most label (`*.example.org`), nothing else.
enum ServerName {
    static func matches(host: String, _ names: CertificateNames) -> Bool {
        if let wanted = address(host) {
            if names.ipAddresses.isEmpty, let commonName = names.commonName { return address(commonName) == wanted }
            return names.ipAddresses.contains(wanted)
        }
        if names.dnsNames.isEmpty, let commonName = names.commonName { return nameMatches(commonName, host: host) }
        return names.dnsNames.contains { nameMatches($0, host: host) }
    }

    /// The bytes of an IPv4 or IPv6 address written as one, else nil (a host name).
    static func address(_ text: String) -> [UInt8]? {
        var four = in_addr()
        if inet_pton(AF_INET, text, &four) == 1 { return withUnsafeBytes(of: &four) { Array($0) } }
        var six = in6_addr()
        if inet_pton(AF_INET6, text, &six) == 1 { return withUnsafeBytes(of: &six) { Array($0) } }
        return nil
    }

    /// A certificate's DNS name against the host, ignoring case; `*.` matches a first label of one or
    /// more characters and no dot.
    static func nameMatches(_ name: String, host: String) -> Bool {
        let name = name.lowercased(), host = host.lowercased()
        guard name.hasPrefix("*.") else { return name == host }
        let suffix = name.dropFirst()
        guard host.hasSuffix(suffix) else { return false }
        let label = host.dropLast(suffix.count)
        return !label.isEmpty && !label.contains(".")
    }
}
