/// What a host in a hub's URL names.
public enum NetworkHost {
    /// True for this machine over TCP: "localhost", 127.0.0.0/8, ::1.
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || isIPv4(host) && host.hasPrefix("127.")
    }

    /// True for a host given as an IPv4 address.
    public static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}
