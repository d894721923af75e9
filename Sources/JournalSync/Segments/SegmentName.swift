/// One segment of a device's log: the positions (that device's change sequence numbers) it covers.
/// Named `<first>-<last>.seg`, zero-padded so a listing sorts in order.
public struct SegmentName: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let first: Int64
    public let last: Int64

    public init(first: Int64, last: Int64) {
        self.first = first
        self.last = last
    }

    /// Reads a file name, exactly as `fileName` writes it; nil for anything else (temporaries, conflict
    /// copies of sync tools, names a journal never writes), so that a name always names its file.
    public init?(fileName: String) {
        let bytes = Array(fileName.utf8)
        guard bytes.count == 29, bytes[12] == UInt8(ascii: "-"), fileName.hasSuffix(".seg"),
            bytes[0..<12].allSatisfy({ $0 >= 48 && $0 <= 57 }), bytes[13..<25].allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let first = Int64(String(decoding: bytes[0..<12], as: UTF8.self)),
            let last = Int64(String(decoding: bytes[13..<25], as: UTF8.self)), first >= 1, first <= last
        else { return nil }
        self.init(first: first, last: last)
    }

    /// The most a segment's sealed bytes can be: `SyncEngine.maximumSegmentRecords` records of the
    /// largest kind (a drink with a 1000-character note, every character escaped: about 6.3 KB), with
    /// room to spare. A larger file in a log is refused without being read.
    public static let maximumBytes = 32 * 1024 * 1024

    public var fileName: String { "\(Self.padded(first))-\(Self.padded(last)).seg" }

    public var description: String { fileName }

    public static func < (lhs: SegmentName, rhs: SegmentName) -> Bool { (lhs.first, lhs.last) < (rhs.first, rhs.last) }

    private static func padded(_ number: Int64) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }
}
