import JournalKit

import Glibc

/// What a hub or its transport reported: the condition the engine and the daemon act on, and the code
/// the transport gave (an errno, a server's SQLSTATE). Control flow reads `condition`, never words; a
/// person reads `description`, through `SyncError.hub`, in the same words whatever the kind of hub.
public struct HubFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Condition: Sendable, Equatable {
        /// The hub cannot be reached now (no answer, a mount gone, a server restarting or full): a
        /// later sync may succeed, and nothing was lost.
        case unreachable
        /// A name that is taken: a segment is never written over another.
        case nameTaken
        /// One entry of the hub cannot be used as it is (not a regular file, too large, a link): that
        /// entry's failure, not the hub's.
        case unusableEntry
        /// An entry listed a moment ago is gone (its device compacted it into a larger one, a sync tool
        /// is at work): the hub moved on, and listing it again finds what replaced it.
        case gone
        /// The key given does not open the hub, whose id is this: it belongs to another hub.
        case wrongKey(HubID)
    }

    public let condition: Condition
    /// The hub, as messages name it.
    public let hub: String
    /// What happened, in words; for `nameTaken`, what is taken ("segment 1-4.seg").
    public let reason: String
    /// The transport's own code, where it gave one.
    public let code: TransportCode?
    /// How long the server asked to be left alone (an HTTP `Retry-After` with 429 or 503): a retry
    /// waits at least this long, whatever its backoff says.
    public let retryAfter: Duration?

    public init(_ condition: Condition, hub: String, reason: String, code: TransportCode? = nil, retryAfter: Duration? = nil) {
        self.condition = condition
        self.hub = hub
        self.reason = reason
        self.code = code
        self.retryAfter = retryAfter
    }

    public var description: String {
        switch condition {
        case .unreachable: "cannot reach the hub \(hub): \(reason). Nothing was lost."
        case .nameTaken: "\(reason) is already on the hub; another copy of this journal wrote it."
        case .unusableEntry: "a file in the hub \(hub) cannot be used: \(reason). Nothing was lost."
        case .gone: "a file in the hub \(hub) went away while it was being read: \(reason). Nothing was lost."
        case .wrongKey: "the sync key does not open \(hub): it belongs to another hub. Nothing was read or written."
        }
    }
}

/// A code a hub's transport reports a failure by.
public enum TransportCode: Sendable, Hashable, CustomStringConvertible {
    /// A system call's errno (a folder hub's file system).
    case errno(Int32)
    /// A PostgreSQL server's SQLSTATE (Appendix A of its manual), five characters.
    case sqlState(String)
    /// An HTTP server's status (RFC 9110, RFC 4918): a WebDAV hub's.
    case httpStatus(Int)

    public var description: String {
        switch self {
        case .errno(let code): "errno \(code)"
        case .sqlState(let state): "SQLSTATE \(state)"
        case .httpStatus(let status): "HTTP \(status)"
        }
    }
}

extension SyncError {
    /// The key does not open the hub `hubID` at `hub`.
    public static func wrongKey(hub: String, hubID: HubID) -> SyncError {
        .hub(HubFailure(.wrongKey(hubID), hub: hub, reason: "the key opens another hub"))
    }

    /// The hub cannot be reached now.
    public static func hubUnavailable(hub: String, reason: String, code: TransportCode? = nil) -> SyncError {
        .hub(HubFailure(.unreachable, hub: hub, reason: reason, code: code))
    }

    /// One entry of the hub cannot be used as it is.
    public static func unusableFile(hub: String, reason: String, code: TransportCode? = nil) -> SyncError {
        .hub(HubFailure(.unusableEntry, hub: hub, reason: reason, code: code))
    }

    /// The segment `name` is on the hub already.
    public static func segmentExists(_ name: String, hub: String = "", code: TransportCode? = nil) -> SyncError {
        .hub(HubFailure(.nameTaken, hub: hub, reason: "segment \(name)", code: code))
    }

    /// The condition of what the hub reported, for a failure the hub reported; nil otherwise.
    public var hubCondition: HubFailure.Condition? {
        if case .hub(let failure) = self { failure.condition } else { nil }
    }
}

extension Error {
    /// The condition of what a hub reported, when this is such a failure.
    public var hubCondition: HubFailure.Condition? { (self as? SyncError)?.hubCondition }

    /// How long the hub's server asked to be left alone, when it did.
    public var hubRetryAfter: Duration? {
        guard case .hub(let failure)? = self as? SyncError else { return nil }
        return failure.retryAfter
    }
}
