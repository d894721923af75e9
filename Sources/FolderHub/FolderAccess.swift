import CLinux
import JournalKit
import JournalSync

import Glibc

/// Files inside a shared folder, reached one folder at a time from the folder the person chose, never
/// through a symbolic link: a link in a hub (planted by anyone who can write the share) must not make
/// this device read a file elsewhere, nor write its segments elsewhere. Files are opened without
/// blocking (a FIFO never hangs a sync) and read only when regular and within a size limit.
struct FolderAccess: Sendable {
    /// The folder the person chose; a link there is theirs to make, so it is followed.
    let location: String
    /// Permissions of what this device creates: 0700 folders and 0600 files unless the hub is shared.
    let folderMode: mode_t
    let fileMode: mode_t

    /// An open folder, closed when released.
    final class Folder {
        let descriptor: Int32
        let path: String
        init(descriptor: Int32, path: String) {
            self.descriptor = descriptor
            self.path = path
        }
        deinit { close(descriptor) }
    }

    /// The folder at `components` under `location`, each one opened without following a link; made
    /// (with `folderMode`) where missing when `creating`.
    func folder(_ components: [String], creating: Bool = false) throws(FileSystem.Failure) -> Folder {
        let root = open(location, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw FileSystem.failure(location) }
        var current = Folder(descriptor: root, path: location)
        for name in components {
            let path = current.path + "/" + name
            var next = openat(current.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0, errno == ENOENT, creating {
                if mkdirat(current.descriptor, name, folderMode) != 0, errno != EEXIST { throw FileSystem.failure(path) }
                // Applied again: the umask may have taken group bits a shared hub needs.
                next = openat(current.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if next >= 0 { fchmod(next, folderMode) }
            }
            guard next >= 0 else { throw Self.refusal(path) }
            current = Folder(descriptor: next, path: path)
        }
        return current
    }

    /// Names in the folder at `components`, without "." and "..".
    func names(in components: [String]) throws(FileSystem.Failure) -> [String] {
        let folder = try folder(components)
        return try FileSystem.list(descriptor: folder.descriptor, path: folder.path)
    }

    /// The bytes of the regular file `name` in the folder at `components`, at most `limit`. What is no
    /// regular file is said so before it is opened: a socket cannot be (ENXIO), which would read as
    /// the hub out of reach.
    func read(_ name: String, in components: [String], limit: Int, what: String) throws(FileSystem.Failure) -> [UInt8] {
        let folder = try folder(components)
        let path = folder.path + "/" + name
        var info = stat()
        guard fstatat(folder.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { throw Self.refusal(path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw (info.st_mode & S_IFMT) == S_IFLNK ? Self.link(path) : FileSystem.notRegularFile(path, what: what)
        }
        let descriptor = openat(folder.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.refusal(path) }
        defer { close(descriptor) }
        return try FileSystem.readRegularFile(descriptor, name: path, limit: limit, what: what)
    }

    /// What tells whether the file `name` changed since it was written: its size and modification
    /// time; nil when it is missing.
    func fingerprint(of name: String, in components: [String]) throws(FileSystem.Failure) -> String? {
        let folder = try folder(components)
        var info = stat()
        guard fstatat(folder.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw FileSystem.failure(folder.path + "/" + name)
        }
        return "\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// `identity(of:in:)` of each of `names`, the folder opened once.
    func identities(of names: [String], in components: [String]) throws(FileSystem.Failure) -> [String?] {
        let folder = try folder(components)
        var found: [String?] = []
        for name in names {
            var info = stat()
            guard fstatat(folder.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT {
                    found.append(nil)
                    continue
                }
                throw FileSystem.failure(folder.path + "/" + name)
            }
            found.append(Self.identity(info))
        }
        return found
    }

    /// What tells a file's version apart (`identity(of:in:)`), from what `stat` said of it.
    private static func identity(_ info: stat) -> String {
        "\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec):\(info.st_ino)"
    }

    /// What tells whether the file `name` was changed or replaced since it was last looked at: its
    /// size, modification and status-change times and inode (no one sets a status-change time, and
    /// a file written anew has an inode of its own); nil when it is missing.
    func identity(of name: String, in components: [String]) throws(FileSystem.Failure) -> String? {
        let folder = try folder(components)
        var info = stat()
        guard fstatat(folder.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw FileSystem.failure(folder.path + "/" + name)
        }
        return Self.identity(info)
    }

    /// Writes `bytes` as `name` in the folder at `components` (made when missing), whole or not at all
    /// (a `TemporaryFile`), and never over a file of that name (EEXIST) unless `replacing`. Returns
    /// the new file's fingerprint.
    @discardableResult
    func writeNew(_ bytes: [UInt8], as name: String, in components: [String], replacing: Bool = false) throws(FileSystem.Failure)
        -> String
    {
        let folder = try folder(components, creating: true)
        let temporary = try TemporaryFile(inFolder: folder.descriptor, path: folder.path, mode: fileMode)
        try temporary.write(bytes)
        try temporary.place(as: name, replacing: replacing)
        return try fingerprint(of: name, in: components) ?? ""
    }

    /// Removes what writes that died left in the folder at `components`: temporaries nobody holds,
    /// and those of journals before `TemporaryFile` (`.NAME.tmp-HEX`, whose `marker` says what
    /// NAME was: ".seg.tmp-").
    func removeLeftovers(in components: [String], olderMarker marker: String) throws(FileSystem.Failure) {
        let folder = try folder(components)
        TemporaryFile.removeLeftovers(inFolder: folder.descriptor, path: folder.path)
        for name in try FileSystem.list(descriptor: folder.descriptor, path: folder.path) where HubLayout.isTemporary(name) && name.contains(marker) {
            unlinkat(folder.descriptor, name, 0)
        }
    }

    /// Removes the file `name` from the folder at `components`; a file already gone is fine.
    func remove(_ name: String, in components: [String]) throws(FileSystem.Failure) {
        let folder = try folder(components)
        guard unlinkat(folder.descriptor, name, 0) == 0 || errno == ENOENT else { throw FileSystem.failure(folder.path + "/" + name) }
    }

    /// Moves `name` from the folder at `components` to the folder at `destination` (made when missing),
    /// under a name of its own there if one is taken. A rename, so a file another user owns moves as
    /// well as one of ours (in a shared hub, a member can plant either), and never over what is there.
    func move(_ name: String, in components: [String], to destination: [String]) throws(FileSystem.Failure) {
        let source = try folder(components)
        let target = try folder(destination, creating: true)
        var candidate = name
        var attempt = 1
        while true {
            if journal_rename_noreplace(source.descriptor, name, target.descriptor, candidate) == 0 { return }
            // A file system that cannot rename without replacing: a link, then the old name removed.
            if errno == EINVAL || errno == ENOSYS, linkat(source.descriptor, name, target.descriptor, candidate, 0) == 0 {
                guard unlinkat(source.descriptor, name, 0) == 0 || errno == ENOENT else { throw FileSystem.failure(source.path + "/" + name) }
                return
            }
            guard errno == EEXIST, attempt < 100 else { throw FileSystem.failure(source.path + "/" + name) }
            attempt += 1
            candidate = name + ".\(attempt)"
        }
    }

    /// What a symbolic link where a file or folder of the hub belongs means (or, met on the way to
    /// one, a file where a folder belongs).
    private static func link(_ path: String) -> FileSystem.Failure {
        FileSystem.Failure(path: path, reason: "it is a symbolic link or not a folder, which is not followed inside a hub", code: FileSystem.EFTYPE)
    }

    /// The failure for a path that could not be opened, saying so plainly when it is a link, a socket
    /// or a device.
    private static func refusal(_ path: String) -> FileSystem.Failure {
        if errno == ELOOP || errno == ENOTDIR { return link(path) }
        // Made a socket or a device since it was looked at.
        if errno == ENXIO || errno == ENODEV {
            return FileSystem.Failure(path: path, reason: "it is a socket or a device, not a regular file", code: FileSystem.EFTYPE)
        }
        return FileSystem.failure(path)
    }
}
