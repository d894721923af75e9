/// One segment of a device's log: the positions (that device's change sequence numbers) it covers.
/// Named `<first>-<last>.seg`, zero-padded so a listing sorts in order.
public struct SegmentName: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let first: Int64
    public let last: Int64

    public init(first: Int64, last: Int64) {
        self.first = first
        self.last = last
    }

    /// Reads a file name; nil for anything else (temporaries, conflict copies of sync tools).
    public init?(fileName: String) {
        guard fileName.hasSuffix(".seg"), !fileName.hasPrefix(".") else { return nil }
        let parts = fileName.dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }),
            let first = Int64(parts[0]), let last = Int64(parts[1]), first >= 1, first <= last
        else { return nil }
        self.init(first: first, last: last)
    }

    public var fileName: String { "\(Self.padded(first))-\(Self.padded(last)).seg" }

    public var description: String { fileName }

    public static func < (lhs: SegmentName, rhs: SegmentName) -> Bool { (lhs.first, lhs.last) < (rhs.first, rhs.last) }

    private static func padded(_ number: Int64) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }
}
