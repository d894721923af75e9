import FolderHub
import JournalSync
import PostgresHub
import S3Hub
import WebDAVHub

extension HubRegistry {
    /// Every kind of hub the sync program reaches: the one registration of each kind.
    public static let known = HubRegistry([FolderDriver(), PostgresDriver(), WebDAVDriver(), S3Driver()])

    /// `known`, for a look at the hub that must answer soon whatever the server does (`sync status`).
    public static let glance = known.with(HubAccess(patience: .glance))
}
