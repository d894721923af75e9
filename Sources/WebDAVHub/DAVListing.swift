import HTTPHubSupport
import JournalKit
import JournalSync

/// A collection as one PROPFIND (`Depth: 1`) listed it: its members by name, and whether each had
/// settled when listed (changed at least a tick of the server's clock before the answer).
struct DAVListing: Sendable {
    /// The collection itself, when the server listed it.
    let collection: DAVEntry?
    /// The direct members, by name; names starting with "." are left out (temporaries: the server's,
    /// a sync client's, or a write that died), as the folder hub leaves them out.
    let members: [String: DAVEntry]
    /// The server's clock when it answered (`Date`), in seconds since 1970.
    let serverTime: Int64?

    /// The listing of the collection at `components` from its PROPFIND answer: only entries directly
    /// inside it are members.
    init(_ entries: [DAVEntry], of components: [String], serverTime: Int64?) {
        var collection: DAVEntry?
        var members: [String: DAVEntry] = [:]
        for entry in entries {
            if entry.components == components {
                collection = entry
            } else if entry.components.count == components.count + 1, Array(entry.components.dropLast()) == components,
                !HubLayout.isTemporary(entry.name)
            {
                members[entry.name] = entry
            }
        }
        self.collection = collection
        self.members = members
        self.serverTime = serverTime
    }

    /// `entry`'s fingerprint for a file that is replaced in place (a card): once settled, its ETag (or
    /// size and time); one of its own until then, so that a reader reads it again rather than take a
    /// card replaced within the second, at the same size, for the one it read (Apache's ETag is its
    /// size and time too, and weak for that second).
    func replaceableFingerprint(_ entry: DAVEntry) -> String {
        isSettled(entry) ? entry.fingerprint : entry.fingerprint + " unsettled " + UUIDText.random()
    }

    /// True when `entry`'s fingerprint can be trusted to change with its next change: a strong ETag,
    /// or (without one) a modification time at least two seconds before the answer. A change within
    /// the same second as the listing leaves a time to the second as it was, and Apache marks an ETag
    /// weak for that second.
    func isSettled(_ entry: DAVEntry) -> Bool {
        if entry.etag != nil { return !entry.weakETag }
        // Without the server's `Date`, this machine's clock stands in.
        guard let modified = entry.lastModified.flatMap(HTTPDate.seconds) else { return false }
        let serverTime = serverTime ?? SystemClock().now().milliseconds / 1000
        return serverTime - modified >= 2
    }
}
