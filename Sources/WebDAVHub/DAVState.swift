import JournalKit
import JournalSync
import Synchronization

/// What a WebDAV hub keeps between its calls: the hub's top as last listed, each log and the cards'
/// and records' folders as last listed (used again while their folder's fingerprint stays, and it had
/// settled), the folders known to be there, and when the poller last saw another device's change.
final class DAVState: Sendable {
    struct KeptListing<Value: Sendable>: Sendable {
        let fingerprint: String
        let value: Value
    }

    struct Contents: Sendable {
        var top: DAVListing?
        var logs: [DeviceID: KeptListing<DeviceLog>] = [:]
        var folders: [String: KeptListing<[String: String]>] = [:]
        var madeFolders: Set<[String]> = []
        var lastRing: Timestamp?
    }

    let contents = Mutex(Contents())

    func with<T>(_ body: (inout Contents) throws -> T) rethrows -> T { try contents.withLock { try body(&$0) } }
}
