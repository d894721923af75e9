import JournalKit

/// How to start journal-syncd on this machine, for `sync status` to say when it is not running: as
/// a systemd user service where systemd runs the system, else in the background of a login (WSL
/// without systemd, a container), where nothing would start the unit.
public enum DaemonStartAdvice: Equatable, Sendable {
    case systemdUnit
    case background

    /// Where systemd is the system's manager: `sd_booted()`'s test, the folder it makes at boot.
    public static func here(systemdBootedAt marker: String = "/run/systemd/system") -> DaemonStartAdvice {
        FileSystem.isFolder(marker) ? .systemdUnit : .background
    }

    public var sentence: String {
        switch self {
        case .systemdUnit:
            return "not running; start it with systemctl --user enable --now journal-sync"
        case .background:
            return "not running, and this machine has no systemd to start it: run journal-syncd & "
                + "(from ~/.profile to start it at each login; it stops with SIGTERM)"
        }
    }
}
