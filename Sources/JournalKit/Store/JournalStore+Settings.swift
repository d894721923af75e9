/// The settings that describe the person, kept as records that sync (`SyncedSetting`): set on one
/// machine, they hold on every machine, where `config.toml` keeps none of its own.
extension JournalStore {
    /// The settings this journal holds that are set (not taken back), by name. A list, not a
    /// dictionary: `journal add` and `status` read it, and a dictionary's first use scans the
    /// binary's conformances.
    public func syncedSettings() throws -> [SyncedSetting] {
        try connection.query("\(SyncedSetting.table.select) WHERE deleted = 0 ORDER BY name", [], row: SyncedSetting.init(row:))
    }

    /// Sets `key` to `value` on every machine, or takes it back to its default everywhere (`value`
    /// nil). True when the journal changed: setting what is set already writes nothing. A person who
    /// sets a setting so has the settings where this release keeps them: `config.toml` is this
    /// machine's own from then on (`moveLocalSettings` moves nothing).
    @discardableResult
    public func setSynced(_ key: JournalSettings.Key, to value: JournalSettings.Value?) throws -> Bool {
        try write(nil) { context in
            try Self.markSettingsMoved(in: context.connection)
            return try Self.setSynced(key, to: value, in: &context)
        }
    }

    /// Notes that `config.toml` holds what this machine keeps to itself on purpose (`journal config
    /// --local`): `moveLocalSettings` moves nothing of it.
    public func markSettingsMoved() throws {
        try write(nil) { context in try Self.markSettingsMoved(in: context.connection) }
    }

    /// Moves the settings an earlier release kept in `config.toml` (`values`) into the journal, where
    /// they sync, once for the journal's life: nil when it was done (or a person set a setting since,
    /// `setSynced`), else the settings whose synced value changed. One transaction.
    public func moveLocalSettings(_ values: [(key: JournalSettings.Key, value: JournalSettings.Value)]) throws -> [JournalSettings.Key]? {
        try write(nil) { context in
            guard try connection.queryText("SELECT value FROM meta WHERE key = ?", .text(Self.settingsMovedKey)) == nil else { return nil }
            try Self.markSettingsMoved(in: context.connection)
            return try values.filter { try Self.setSynced($0.key, to: $0.value, in: &context) }.map(\.key)
        }
    }

    private static let settingsMovedKey = "settings_moved"

    private static func markSettingsMoved(in connection: SQLiteConnection) throws {
        try connection.run("INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT (key) DO NOTHING", .text(settingsMovedKey))
    }

    private static func setSynced(_ key: JournalSettings.Key, to value: JournalSettings.Value?, in context: inout WriteContext) throws -> Bool {
        let current = try SyncedSetting.table.find(key.rawValue, in: context.connection)
        if let value {
            let setting = SyncedSetting(key, value)
            if let current, !current.isDeleted, current.payload == setting { return false }
            _ = try context.writeLocal(setting, deleted: false, replacing: current)
        } else {
            guard let current, !current.isDeleted else { return false }
            _ = try context.writeLocal(current.payload, deleted: true, replacing: current)
        }
        return true
    }
}

extension JournalSettings {
    /// The settings in effect on this machine: the defaults, under the synced values (`synced`), under
    /// this machine's own (`local`'s values of `localKeys`, from `config.toml`).
    public static func inEffect(synced: [SyncedSetting], local: JournalSettings, localKeys: [Key]) -> JournalSettings {
        var settings = JournalSettings.defaults
        for setting in synced {
            guard let known = setting.known else { continue }
            settings[known.key] = known.value
        }
        for key in localKeys { settings[key] = local[key] }
        return settings
    }
}
