import CommandLineSupport
import JournalKit

import Glibc

/// The user service's network, following the hub: its unit cuts the network (a folder hub never
/// needs it), and a drop-in beside it gives it back to a daemon whose hub is on a server (TCP and
/// TLS, DNS, a Unix socket), whatever its kind (`HubPlace.needsNetwork`). `sync init` writes or removes the drop-in, so moving between hubs
/// needs no unit edited by hand; systemd is asked to reload it, and a running daemon to restart.
enum ServiceNetworkDropIn {
    static let text = """
        # Written by `journal sync init` for a hub on a server, removed for a folder hub: journal-syncd
        # reaches its hub's server (TCP and TLS, DNS, a Unix socket). The rest of the unit's
        # sandbox stays.
        [Service]
        PrivateNetwork=no
        RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6

        """

    /// `$XDG_CONFIG_HOME/systemd/user/journal-sync.service.d/network-hub.conf`.
    static func path() -> String? { folder().map { $0 + "/network-hub.conf" } }

    /// The name earlier releases gave the drop-in, when the only hub on a server was one kind.
    static func earlierPath() -> String? { folder().map { $0 + "/postgres-hub.conf" } }

    private static func folder() -> String? {
        (try? JournalPaths.configHome()).map { $0 + "/systemd/user/journal-sync.service.d" }
    }

    /// Writes the drop-in when `network` and removes it otherwise; says what changed, if anything.
    /// An earlier release's drop-in gives way: removed, and written again by the new name when wanted.
    static func apply(network: Bool) -> String? {
        guard let path = path() else { return nil }
        let hadEarlier = earlierPath().map { unlink($0) == 0 } ?? false
        let present = FileSystem.exists(path)
        if network {
            if present, !hadEarlier, let current = try? FileSystem.readFile(path, limit: 64 * 1024, what: "a unit drop-in"),
                current == Array(text.utf8)
            {
                return nil
            }
            do {
                try FileSystem.makeFolders(FileSystem.parentFolder(of: path), mode: 0o755)
                try FileSystem.writeAtomically(Array(text.utf8), to: path, mode: 0o644)
            } catch {
                return "Could not let journal-syncd reach the server (\(failureMessage(error))); add to the service, with "
                    + "systemctl --user edit journal-sync:\n" + text
            }
        } else {
            guard present || hadEarlier else { return nil }
            _ = unlink(path)
        }
        let reloaded = systemctl(["daemon-reload"]) && systemctl(["try-restart", "journal-sync.service"])
        let change = network ? "may now reach the network (\(path))" : "is cut from the network again"
        return reloaded
            ? "The journal-sync service \(change)."
            : "The journal-sync service \(change); run: systemctl --user daemon-reload && systemctl --user try-restart journal-sync"
    }

    /// Runs `systemctl --user ARGUMENTS` quietly; true when it succeeded.
    private static func systemctl(_ arguments: [String]) -> Bool {
        guard let status = try? Subprocess.run("/usr/bin/systemctl", ["--user", "--quiet"] + arguments, quiet: true) else { return false }
        return status == 0
    }
}
