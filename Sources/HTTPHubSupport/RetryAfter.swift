import JournalKit

/// An HTTP `Retry-After` (RFC 9110, section 10.2.3), which a server sends with 429 Too Many Requests
/// or 503 Service Unavailable: seconds, or a date, read against the answer's own `Date` when it has one
/// (a clock here that is wrong does not stretch or shrink the wait).
public enum RetryAfter {
    /// The longest wait a server is granted: the daemon's backoff goes no further either.
    public static let longest: Duration = .seconds(30 * 60)

    /// The wait `value` asks for, at most `longest`; nil for none, or for a value that is neither
    /// form. `serverDate` is the answer's `Date`, `now` this machine's time (seconds since 1970).
    public static func wait(_ value: String?, serverDate: String?, now: Int64) -> Duration? {
        guard let value = value?.trimmingSpaces, !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard value.utf8.count <= 9, let seconds = Int64(value) else { return longest }
            return min(.seconds(seconds), longest)
        }
        guard let until = HTTPDate.seconds(value) else { return nil }
        let reference = serverDate.flatMap(HTTPDate.seconds) ?? now
        return min(.seconds(max(0, until - reference)), longest)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
