/// What kind of mistake an error is, which decides the exit status a program gives it.
public enum FailureKind: Sendable {
    /// A bad flag or value on the command line (exit 64).
    case usage
    /// Data that cannot be used: an unknown drink, a time or file that does not parse (exit 65).
    case badData
    /// Something set up wrong that retrying cannot fix: another daemon already running, a journal on
    /// a read-only disk (exit 78; systemd does not restart the daemon on it).
    case setup
    /// Anything else (exit 1).
    case failure
}

extension FailureKind {
    /// The exit status a program gives a failure of this kind.
    public var exitStatus: Int32 {
        switch self {
        case .usage: return 64
        case .badData: return 65
        case .setup: return 78
        case .failure: return 1
        }
    }

    /// The kind as the journal records and publishes it: "usage", "bad-data", "setup", "failure".
    public var name: String {
        switch self {
        case .usage: return "usage"
        case .badData: return "bad-data"
        case .setup: return "setup"
        case .failure: return "failure"
        }
    }

    /// The kind named `name`.
    public init?(name: String) {
        guard let kind = [FailureKind.usage, .badData, .setup, .failure].first(where: { $0.name == name }) else { return nil }
        self = kind
    }
}

/// An error meant for a person: its description says what went wrong and what it left as it was; its
/// remedy, if any, says what would fix it, for the program in use to put in its own words (the
/// libraries know no command names).
public protocol JournalFailure: Error, CustomStringConvertible {
    var kind: FailureKind { get }
    var remedy: Remedy? { get }
}

extension JournalFailure {
    public var remedy: Remedy? { nil }
}

/// What a person can do about a failure.
public enum Remedy: Sendable, Equatable {
    /// See the drinks there are, or define one.
    case listOrDefineDrinks
    /// See the drinks they defined.
    case listOwnDrinks
    /// Log a built-in drink with its own caffeine instead of defining one by its name.
    case renameOrGiveCaffeine
    /// Give the caffeine as a number in range.
    case giveCaffeine
    /// See the drinks' ids.
    case listIDs
    /// Change the drink directly instead of undoing.
    case editInstead(DrinkID)
    /// Change the journal through the commands that write it.
    case useWritingCommands
    /// See the tables and views SQL can read.
    case listTables
    /// Use another database file.
    case chooseDatabase
    /// See the settings in effect.
    case showSettings
    /// Join the journal to a hub.
    case joinHub
    /// Join the hub that is in the folder now, with its key, in place of the one joined before.
    case rejoinHub
    /// Share a hub between users: made shared, in a folder of a group they are in.
    case shareHub
    /// Bring the hub's key from a machine that syncs and join with it.
    case joinWithKey
    /// Use the key of the hub (printed on a machine that syncs with it).
    case useTheHubsKey
    /// Give this journal a device id of its own.
    case takeNewDeviceID
    /// Start the program again, so it opens the journal anew.
    case restart
    /// Sync again once the hub can be reached (the daemon does by itself).
    case syncWhenHubIsBack
    /// Give the hub's password when `sync init` asks, or in the file its kind reads (`orElse`: the hub
    /// module's words for that file, "add a line ... to ~/.pgpass (mode 0600)"), never in a URL.
    case givePassword(orElse: String)
}
