/// Why the sync loop wakes. Reasons that arrive while it is busy merge into one set: a burst of
/// changes is one sync, and no reason is ever dropped (a watchdog tick cannot swallow a change).
struct ChangeReasons: OptionSet, Sendable, Hashable, CustomStringConvertible {
    let rawValue: UInt16

    /// Another process committed to the journal (seen by inotify, confirmed by `data_version`).
    static let database = ChangeReasons(rawValue: 1 << 0)
    /// A segment appeared in another device's log on the hub.
    static let hub = ChangeReasons(rawValue: 1 << 1)
    /// The periodic safety-net sync.
    static let tick = ChangeReasons(rawValue: 1 << 2)
    /// Someone asked: SIGHUP or SIGUSR1. Skips any backoff.
    static let request = ChangeReasons(rawValue: 1 << 3)
    /// The backoff after a failure is over.
    static let retry = ChangeReasons(rawValue: 1 << 4)
    /// Time to tell systemd's watchdog the loop is alive.
    static let watchdog = ChangeReasons(rawValue: 1 << 5)
    /// The daemon just started.
    static let startup = ChangeReasons(rawValue: 1 << 6)
    /// A second look at the database, shortly after a write event that `data_version` did not confirm
    /// yet (the event can come before the commit's last write).
    static let recheck = ChangeReasons(rawValue: 1 << 7)
    /// The daemon has been quiet a while since it last synced (or started): time to let go of the code
    /// pages that work brought back (`journal_release_code_pages`).
    static let quiet = ChangeReasons(rawValue: 1 << 8)
    /// Reasons that ask for something other than a sync.
    static let housekeeping: ChangeReasons = [.watchdog, .quiet]

    /// True when something other than housekeeping asks for a look at the journal.
    var wantsSync: Bool { !subtracting(.housekeeping).isEmpty }

    var description: String {
        let names: [(ChangeReasons, String)] = [
            (.database, "database"), (.hub, "hub"), (.tick, "tick"), (.request, "request"), (.retry, "retry"),
            (.watchdog, "watchdog"), (.startup, "startup"), (.recheck, "recheck"), (.quiet, "quiet"),
        ]
        return names.filter { contains($0.0) }.map(\.1).joined(separator: "+")
    }
}
