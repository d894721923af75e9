import ArgumentParser
import CommandLineSupport
import JournalKit

struct Config: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the settings, or change one on every machine: journal config bedtime 23:00, journal config --unset bedtime.",
        discussion: """
            The settings describe you, so they sync: set on one machine, they hold on every machine that syncs \
            the journal, after its next sync. A value for this machine alone (a laptop kept on another time, a \
            shared screen) goes in $XDG_CONFIG_HOME/journal/config.toml (by default ~/.config/journal/config.toml) \
            with --local, and wins here:
              half_life_hours = 5        # how fast caffeine leaves you (1 to 72)
              weight_kg = 70             # and conditions, model: see journal profile
              daily_limit_mg = 400       # the FDA's figure for healthy adults
              sleep_threshold_mg = 50    # under this, caffeine no longer keeps you awake
              bedtime = "23:00"          # the night's room in status (off by default)
              day_starts_at = "04:00"    # when "today" begins, for nights past 0:00

            With a setting's name alone, config prints its value; with a value, it sets it on every machine (and \
            takes this machine's own value out of config.toml, where it would hide it); --unset takes it back to \
            its default everywhere. With --local, both act on config.toml alone (its other lines and comments \
            stay). Without a name, config lists every setting and where its value comes from.
            """)

    @Argument(help: ArgumentHelp("A setting's name, such as bedtime.", valueName: "setting"), completion: .custom(CompletionWords.settings))
    var key: String?

    /// Every word the parser does not know, so that a value that starts with a dash (-5) is a value,
    /// which the setting then refuses in its own words, and not an unknown option.
    @Argument(
        parsing: .allUnrecognized, help: ArgumentHelp("Its new value, such as 23:00, 11pm or 300.", valueName: "value"),
        completion: .custom(CompletionWords.settingValues))
    var values: [String] = []

    var value: String? { values.first }

    @Flag(name: .long, help: "Take the setting back to its default.")
    var unset = false

    @Flag(name: .long, help: "Set or unset this machine's own value, in config.toml, which wins here over what syncs.")
    var local = false

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        try Self.checkValues(values)
        if unset && (key == nil || value != nil) { throw ValidationError("--unset takes a setting's name alone, such as --unset bedtime.") }
        if local && key == nil { throw ValidationError("--local takes a setting's name, such as journal config --local bedtime 01:00.") }
    }

    func run() async throws {
        if let key {
            let setting = try Self.setting(named: key)
            if unset || value != nil { return try await Self.change(setting, to: unset ? nil : value, local: local, global: global, json: output.json) }
            let (config, synced, problems) = try await Self.read(global)
            let settings = Self.shown(config.inEffect(synced: synced))
            if output.json { Output.line(JSONValue.object([(setting.rawValue, Self.json(settings[setting]))]).prettyText) } else {
                Output.line(settings.text(of: setting, withUnit: false))
            }
            if !problems.isEmpty { throw BrokenSettingsLines(problems: problems) }
            return
        }
        let (config, synced, problems) = try await Self.read(global)
        let settings = Self.shown(config.inEffect(synced: synced))
        let keys = JournalSettings.Key.allCases
        if output.json {
            Output.line(JSONValue.object([
                ("file", .string(config.path)),
                ("settings", .object(keys.map { key in
                    (key.rawValue, .object([("value", Self.json(settings[key])), ("source", .string(Self.source(key, config, synced)))]))
                })),
            ]).prettyText)
        } else {
            let rows = keys.map { [$0.rawValue, settings.text(of: $0), Self.source($0, config, synced)] }
            Output.line(Output.table(["SETTING", "VALUE", "FROM"], rows))
        }
        // What the file's other lines set is shown; the lines that set nothing are named after it.
        if !problems.isEmpty { throw BrokenSettingsLines(problems: problems) }
    }

    /// One value at most, and no word that reads as an option (`--lcoal`) taken for one.
    static func checkValues(_ values: [String]) throws {
        if let option = values.first(where: { $0.hasPrefix("--") }) { throw ValidationError("Unknown option '\(option)'.") }
        if values.count > 1 { throw ValidationError("A setting takes one value: quote one with spaces, such as \"11 pm\".") }
    }

    /// This machine's settings file, as far as it reads, the lines that do not, and the journal's
    /// synced settings.
    static func read(_ global: GlobalOptions) async throws -> (ConfigFile, [SyncedSetting], [SettingsError]) {
        let (config, problems) = try ConfigFile.loadKeepingGoodLines()
        let synced = try await global.openStore().syncedSettings()
        return (config, synced, problems)
    }

    /// Where a setting's value comes from, in words: "synced", "this machine (FILE, line N)", "default".
    static func source(_ key: JournalSettings.Key, _ config: ConfigFile, _ synced: [SyncedSetting]) -> String {
        switch config.source(of: key, synced: synced) {
        case .builtInDefault where key == .halfLifeHours && !config.inEffect(synced: synced).conditions.isEmpty: return "conditions (journal profile)"
        case .builtInDefault: return "default"
        case .synced: return "synced"
        case .file(let line): return "this machine (\(JournalPaths.shown(config.path)), line \(line))"
        }
    }

    /// The settings as `config` shows them: the half-life in effect where none is typed in, as it
    /// showed before conditions could set it (scripts read `journal config half_life_hours`).
    static func shown(_ settings: JournalSettings) -> JournalSettings {
        var shown = settings
        shown.halfLifeHours = settings.halfLifeInEffect
        return shown
    }

    /// The setting `name` names, or why none does, with the one meant when one is near.
    static func setting(named name: String) throws -> JournalSettings.Key {
        let typed = String(name.trimmingSpaces.lowercased().map { $0 == "-" ? "_" : $0 })
        if let key = JournalSettings.Key(rawValue: typed) { return key }
        throw UnknownSetting(name: name)
    }

    /// Sets `setting` to `value` (a command line's text), or takes it back to its default (`value` nil):
    /// on every machine, or, `local`, in this machine's file alone. Says what it was and where.
    static func change(_ setting: JournalSettings.Key, to value: String?, local: Bool, global: GlobalOptions, json: Bool) async throws {
        let path = try ConfigFile.defaultPath()
        var newValue: JournalSettings.Value?
        if let value {
            do { newValue = try SettingsFile.value(value, of: setting, quoted: false) } catch {
                throw SettingValueError(setting: setting.rawValue, value: value, problem: error.problem)
            }
        }
        let before = try ConfigFile.load(path: path)
        let store = try await global.openStore()
        let syncedBefore = try await store.syncedSettings()
        // The file's line goes when the value is set for every machine, where it would hide it here.
        if local || before.lines.contains(where: { $0.key == setting }) {
            let bytes = FileSystem.exists(path) ? try ConfigFile.bytes(at: path) : []
            let edited = try SettingsFile.edited(bytes, path: path, setting: setting, to: local ? newValue : nil)
            if edited != bytes { try ConfigFile.write(edited, to: path) }
        }
        if local { try await store.markSettingsMoved() } else { try await store.setSynced(setting, to: newValue) }
        let after = try ConfigFile.load(path: path)
        let synced = try await store.syncedSettings()
        let was = shown(before.inEffect(synced: syncedBefore)).text(of: setting, withUnit: false)
        let shownAfter = shown(after.inEffect(synced: synced))
        if json { return Output.line(JSONValue.object([(setting.rawValue, Self.json(shownAfter[setting]))]).prettyText) }
        let now = shownAfter.text(of: setting, withUnit: false)
        let change = was == now ? "" : " (it was \(was))"
        switch (local, newValue != nil, after.source(of: setting, synced: synced)) {
        case (true, true, _): Output.line("\(setting.rawValue) is now \(now) on this machine alone\(change), in \(JournalPaths.shown(path)).")
        case (true, false, .synced): Output.line("\(setting.rawValue) is \(now) here again, as on the other machines\(change).")
        case (true, false, _): Output.line("\(setting.rawValue) is \(now) here again, its default\(change).")
        case (false, true, _): Output.line("\(setting.rawValue) is now \(now) on every machine\(change).")
        case (false, false, _): Output.line("\(setting.rawValue) is \(now) again on every machine, its default\(change).")
        }
    }

    static func json(_ value: JournalSettings.Value) -> JSONValue {
        switch value {
        case .number(let number): return number.map { .number($0) } ?? .null
        case .clockTime(let time): return time.map { .string($0.description) } ?? .null
        case .conditions(let conditions): return .array(conditions.map { .string($0.rawValue) })
        case .model(let kind): return kind.map { .string($0.rawValue) } ?? .null
        }
    }
}

/// A name that is no setting's.
/// A value typed for a setting that it cannot take (`journal config bedtime 25:00`): a bad value
/// (exit 64, as a bad flag's), said with what the setting takes, not with every setting there is.
/// The lines of config.toml that are not settings, each named, after what the others set was shown;
/// bad data (65), and no remedy that sends to `journal config`, which this is.
struct BrokenSettingsLines: JournalFailure {
    let problems: [SettingsError]

    var kind: FailureKind { .badData }
    var description: String {
        let lines = problems.map { "\($0.place): \($0.problem)" }
        return (lines.count == 1 ? "" : "\(lines.count) lines of the settings file set nothing:\n") + lines.joined(separator: "\n")
            + (lines.count == 1 ? "; it sets nothing, and the other lines hold." : "\nThe other lines hold.")
    }
}

struct SettingValueError: JournalFailure, Equatable {
    let setting: String
    let value: String
    let problem: String

    var kind: FailureKind { .usage }
    var description: String { "\(setting) cannot be '\(TerminalText.escaped(value))': \(problem)." }
}

struct UnknownSetting: JournalFailure {
    let name: String

    var kind: FailureKind { .usage }
    var description: String {
        let keys = JournalSettings.Key.allCases.map(\.rawValue)
        let lowered = name.lowercased()
        let near = keys.filter { EditDistance.between(lowered, $0) <= 3 }
        let meant = near.isEmpty ? "" : " Did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))?"
        return "'\(TerminalText.escaped(name))' is not a setting.\(meant) The settings are \(keys.joined(separator: ", "))."
    }
}
