/// The kinds of hub, as the journal records which one it joined (`sync_hub.kind`) and as `journal sync
/// init` is told one (an option each). The places that turn a kind into a hub are `switch`es over
/// this (a program's `HubPlaces`, the option of `sync init` that names a hub of the kind): a new kind
/// is a compile error there until it is handled. Everything else a program asks of a hub (its change
/// feed, its description, its format, its need of the network) is the `Hub` and `HubPlace`
/// protocols', which a new kind of hub must implement whole.
public enum HubKind: String, Sendable, CaseIterable {
    /// A folder every machine reaches: local, NFS, or copied by Syncthing or Dropbox (`FolderHub`).
    case folder
    /// A PostgreSQL server (`PostgresHub`, a module of its own).
    case postgres
}
