import JournalKit

extension Remedy {
    /// The remedy as a sentence naming this suite's commands: what the libraries leave to the programs.
    public var advice: String {
        switch self {
        case .listOrDefineDrinks:
            return "`journal drinks` lists every drink; `journal drinks add NAME --mg N` defines one of your own."
        case .listOwnDrinks:
            return "`journal drinks` lists yours (source: your own); `journal drinks add NAME --mg N` defines one."
        case .renameOrGiveCaffeine:
            return "Give yours another name, or log the built-in one with your amount: journal add NAME --mg N."
        case .giveCaffeine:
            return "Give the amount in mg, such as --mg 80."
        case .listIDs:
            return "`journal list` shows the ids."
        case .editInstead(let id):
            return "Use journal edit \(id.short) instead."
        case .useWritingCommands:
            return "Use journal add, edit, rm or import to change the journal."
        case .listTables:
            return "`journal sql \"select name from sqlite_schema\"` lists the tables and views."
        case .chooseDatabase:
            return "Choose another file with --db PATH or JOURNAL_DB."
        case .showSettings:
            return "`journal config` shows them."
        case .joinHub:
            return "Join one with: journal sync init --hub HUB (a folder's path, or a server's URL: see its --help)."
        case .rejoinHub:
            return "Join the hub that is there now: on a machine that syncs with it, run `journal sync key`; here, run "
                + "`journal sync init --hub HUB --key-file -` and paste the key. Nothing is lost: this journal's own "
                + "changes are published to it again."
        case .shareHub:
            return "A hub several users sync through is made shared by the first of them, in a folder whose group "
                + "they are all in: journal sync init --hub PATH --shared (the README shows the set-up)."
        case .joinWithKey:
            return "On a machine that syncs, run `journal sync key`; here, run "
                + "`journal sync init --hub HUB --key-file -` and paste the key."
        case .useTheHubsKey:
            return "Use the key that `journal sync key` prints on a machine that syncs with this hub."
        case .takeNewDeviceID:
            return "Run `journal sync new-device` here to give this journal an identity of its own (and on the other "
                + "copy too if it says the same); nothing is lost."
        case .restart:
            return "Run the command again."
        case .syncWhenHubIsBack:
            return "Run `journal sync` again when it is back; a running journal-syncd tries again by itself."
        case .givePassword(let orElse):
            return "Run `journal sync init` on a terminal to be asked for it (it is kept 0600 beside the sync key), or \(orElse)."
        }
    }
}
