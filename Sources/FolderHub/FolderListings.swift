import Glibc
import JournalKit
import JournalSync
import Synchronization

/// A hub folder's names as last listed and sorted, kept while the folder does not change (its
/// modification and status-change times, size and inode): a sync pages through the cards and records a
/// page at a time, and a folder of many junk names is listed and sorted once, not once a page.
///
/// A folder's times move in coarse ticks, so a name added in the tick of a listing may leave them as
/// they were: a listing made within a second of the folder's last change is not kept, and each sync
/// forgets them all (`FolderHub.refresh`), so a name is never missed past the sync that lists it.
final class FolderListings: Sendable {
    private struct Listing {
        let identity: String
        let names: [String]
    }

    private let kept = Mutex<[String: Listing]>([:])

    /// The names in `folder` (inside the folder at `parentComponents`) as `order` sorts and filters them,
    /// listed again only when the folder changed.
    func names(
        of folder: String, in files: FolderAccess, parentComponents: [String], order: ([String]) -> [String]
    ) throws(FileSystem.Failure) -> [String] {
        let parent = try files.folder(parentComponents)
        var info = stat()
        guard fstatat(parent.descriptor, folder, &info, AT_SYMLINK_NOFOLLOW) == 0 else { throw FileSystem.failure(parent.path + "/" + folder) }
        let identity = "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec):\(info.st_size):\(info.st_ino)"
        if let known = kept.withLock({ $0[folder] }), known.identity == identity { return known.names }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let names = order(try files.names(in: parentComponents + [folder]))
        let settled = now.tv_sec - max(info.st_mtim.tv_sec, info.st_ctim.tv_sec) >= 2
        kept.withLock { $0[folder] = settled ? Listing(identity: identity, names: names) : nil }
        return names
    }

    /// Forgets every listing: the next look at a folder lists it again.
    func forget() {
        kept.withLock { $0.removeAll() }
    }
}
