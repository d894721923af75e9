import JournalKit

/// What a name in a log's folder is, as a kind's listing found it.
public enum LogEntry: Sendable, Equatable {
    /// A file, with what tells whether it changed since it was written.
    case file(fingerprint: String)
    /// Something that cannot be a segment (a folder): a stray, to be set aside.
    case notAFile
    /// Gone between the listing and the look at it: not listed.
    case gone
}

extension DeviceLog {
    /// A device's log from a listing of its folder, by one rule for every kind: a temporary is not
    /// listed; a name that reads as a segment is that segment, unless its listing showed it is no file
    /// (a folder hub's is read to tell: a FIFO or socket is that segment's failure alone); anything
    /// else is a stray.
    /// `entry` is asked only of what has a name that reads as a segment's (a folder looks at each
    /// file it is asked of).
    public init<Listed, Failure: Error>(
        listing: some Sequence<Listed>, name: (Listed) -> String, entry: (Listed) throws(Failure) -> LogEntry
    ) throws(Failure) {
        var segments: [SegmentEntry] = []
        var strays: [String] = []
        for listed in listing {
            let name = name(listed)
            if HubLayout.isTemporary(name) { continue }
            guard let segment = SegmentName(fileName: name) else {
                strays.append(name)
                continue
            }
            switch try entry(listed) {
            case .file(let fingerprint): segments.append(SegmentEntry(name: segment, fingerprint: fingerprint))
            case .notAFile: strays.append(name)
            case .gone: continue
            }
        }
        self.init(segments: segments.sorted { $0.name < $1.name }, strays: strays.sorted())
    }
}
