import JournalKit

/// The settings an earlier release kept in `config.toml`, for this machine alone, moved once into the
/// journal, where they sync (`SyncedSetting`): the same person on two machines then reads the same
/// numbers. The sync program moves them (`sync init`, `journal sync`, the daemon's start), as until a
/// journal syncs, where a setting is kept changes no number. A journal whose settings a person set
/// since (`journal config`, with `--local` or without), or whose settings moved once, moves nothing:
/// `config.toml` is this machine's own on purpose then.
public enum SettingsMove {
    /// What a move did: the settings taken out of the file at `path`, now the journal's.
    public struct Moved: Sendable {
        public let keys: [JournalSettings.Key]
        public let path: String

        /// "Moved weight_kg and bedtime from ~/.config/journal/config.toml into the journal: ..."
        public var sentence: String {
            let names = keys.map(\.rawValue)
            let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
            return "Moved \(list) from \(path) into the journal: they now hold on every machine that syncs it (set them with `journal "
                + "config`; `journal config --local` keeps a value to this machine)."
        }
    }

    /// Moves the file's settings into `store`, once; nil when there was nothing to move.
    public static func run(_ store: JournalStore) async throws -> Moved? {
        let config = try ConfigFile.load()
        let values = config.lines.map { (key: $0.key, value: config.settings[$0.key]) }
        // Nothing in the file: nothing written (a daemon starts without waiting for the journal's lock).
        guard !values.isEmpty, try await store.moveLocalSettings(values) != nil else { return nil }
        var bytes = try ConfigFile.bytes(at: config.path)
        for key in config.lines.map(\.key) {
            bytes = try SettingsFile.edited(bytes, path: config.path, setting: key, to: nil)
        }
        try ConfigFile.write(bytes, to: config.path)
        return Moved(keys: values.map(\.key), path: config.path)
    }
}
