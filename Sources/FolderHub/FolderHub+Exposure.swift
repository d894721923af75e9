import JournalKit
import JournalSync

import Glibc

/// What `journal sync status` says of a folder hub: who else can read it, and links inside it.
extension FolderHub {
    /// Paths in the hub that users of this machine other than its owner can read (for a shared hub,
    /// users outside its group): a sync tool that ignores permissions made them 0644 and 0755. Up to
    /// `limit` of them, with the number found; and the symbolic links in it, which journal never
    /// follows and which no chmod changes: someone put them there, and they are to be removed.
    public func exposedPaths(limit: Int = 5) -> (paths: [String], count: Int, links: [String]) {
        let mask: mode_t = isShared ? 0o007 : 0o077
        var found: [String] = []
        var links: [String] = []
        var count = 0
        func check(_ components: [String], _ name: String) {
            var info = stat()
            let path = ([location] + components + [name]).joined(separator: "/")
            guard lstat(path, &info) == 0 else { return }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                if links.count < limit { links.append(path) }
                return
            }
            guard info.st_mode & mask & 0o444 != 0 else { return }
            count += 1
            if found.count < limit { found.append(path + " (" + String(info.st_mode & 0o7777, radix: 8) + ")") }
        }
        check([], HubLayout.root)
        check([HubLayout.root], HubLayout.descriptor)
        check([HubLayout.root], Self.logsFolder)
        check([HubLayout.root], HubLayout.cards)
        check([HubLayout.root], HubLayout.epochs)
        for name in (try? files.names(in: [HubLayout.root, HubLayout.epochs])) ?? [] { check([HubLayout.root, HubLayout.epochs], name) }
        for name in (try? files.names(in: [HubLayout.root, HubLayout.cards])) ?? [] { check([HubLayout.root, HubLayout.cards], name) }
        for device in (try? files.names(in: [HubLayout.root, Self.logsFolder])) ?? [] {
            check([HubLayout.root, Self.logsFolder], device)
            for name in (try? files.names(in: [HubLayout.root, Self.logsFolder, device])) ?? [] {
                check([HubLayout.root, Self.logsFolder, device], name)
            }
        }
        return (found, count, links)
    }

    public func describe() -> HubDescription {
        let exposed = exposedPaths()
        var warnings = exposed.links.map {
            "\($0) is a symbolic link inside the hub, which journal never follows and no chmod changes: remove it (rm \(ShellWord.quoted($0)))."
        }
        if exposed.count > 0 {
            warnings.insert(
                "\(exposed.count) file\(exposed.count == 1 ? "" : "s") and folders of the hub can be read by other users of "
                    + "this machine, such as \(exposed.paths.joined(separator: ", ")): a sync tool that ignores permissions made "
                    + "them so. What they hold is encrypted, but who syncs how often is not. Fix it with: "
                    + "chmod -R \(isShared ? "o" : "go")-rwx \(ShellWord.quoted(location + "/" + HubLayout.root))", at: 0)
        }
        let sharing = HubFact(label: "Shared", key: "shared", value: isShared ? "with the folder's group" : "no, this user's alone")
        return HubDescription(facts: [sharing], warnings: warnings)
    }
}
