import ArgumentParser
import CommandLineSupport
import JournalKit

struct Config: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the settings, or change one: journal config bedtime 23:00, journal config --unset bedtime.",
        discussion: """
            Settings live in $XDG_CONFIG_HOME/journal/config.toml (by default ~/.config/journal/config.toml):
              half_life_hours = 5        # how fast caffeine leaves you (1 to 72)
              weight_kg = 70             # and conditions, model: see journal profile
              daily_limit_mg = 400       # the FDA's figure for healthy adults
              sleep_threshold_mg = 50    # under this, caffeine no longer keeps you awake
              bedtime = "23:00"          # status says what is left of the night's room (off by default)
              day_starts_at = "04:00"    # when "today" begins, for a day that ends after midnight

            With a setting's name alone, config prints its value; with a value, it writes it to the file (its \
            other lines and comments stay); --unset takes the setting out, back to its default.
            """)

    @Argument(help: ArgumentHelp("A setting's name, such as bedtime.", valueName: "setting"))
    var key: String?

    @Argument(help: ArgumentHelp("Its new value, such as 23:00, 11pm or 300.", valueName: "value"))
    var value: String?

    @Flag(name: .long, help: "Take the setting out of the file: its default holds again.")
    var unset = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if unset && (key == nil || value != nil) { throw ValidationError("--unset takes a setting's name alone, such as --unset bedtime.") }
    }

    func run() async throws {
        if let key {
            let setting = try Self.setting(named: key)
            if unset || value != nil { return try Self.change(setting, to: unset ? nil : value, json: output.json) }
            let config = try ConfigFile.load()
            let settings = Self.inEffect(config.settings)
            if output.json { return Output.line(JSONValue.object([(setting.rawValue, Self.json(settings[setting]))]).prettyText) }
            return Output.line(settings.text(of: setting, withUnit: false))
        }
        let config = try ConfigFile.load()
        let settings = Self.inEffect(config.settings)
        let keys = JournalSettings.Key.allCases
        func source(_ key: JournalSettings.Key) -> String {
            switch config.source(of: key) {
            case .builtInDefault where key == .halfLifeHours && !config.settings.conditions.isEmpty: return "conditions (journal profile)"
            case .builtInDefault: return "default"
            case .file(let line): return "\(config.path), line \(line)"
            }
        }
        if output.json {
            Output.line(JSONValue.object([
                ("file", .string(config.path)),
                ("settings", .object(keys.map { key in
                    (key.rawValue, .object([("value", Self.json(settings[key])), ("source", .string(source(key)))]))
                })),
            ]).prettyText)
            return
        }
        let rows = keys.map { [$0.rawValue, settings.text(of: $0), source($0)] }
        Output.line(Output.table(["SETTING", "VALUE", "FROM"], rows))
    }

    /// The settings as `config` shows them: the half-life in effect where none is typed in, as it
    /// showed before conditions could set it (scripts read `journal config half_life_hours`).
    static func inEffect(_ settings: JournalSettings) -> JournalSettings {
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

    /// Writes the setting's new value, or takes it out (`value` nil), and says what it was.
    static func change(_ setting: JournalSettings.Key, to value: String?, json: Bool) throws {
        let path = try ConfigFile.defaultPath()
        let before = try ConfigFile.load(path: path)
        var newValue: JournalSettings.Value?
        if let value {
            do { newValue = try SettingsFile.value(value, of: setting, quoted: false) } catch {
                throw SettingsError(path: path, line: nil, key: setting.rawValue, problem: "cannot set it to '\(value)': \(error.problem)")
            }
        }
        let bytes = FileSystem.exists(path) ? try FileBytes.read(path, limit: ConfigFile.sizeLimit, what: "a settings file") : []
        let edited = try SettingsFile.edited(bytes, path: path, setting: setting, to: newValue)
        if edited != bytes {
            // A settings file that is a link (a dotfiles manager's) is changed where it leads, with
            // the permissions it has: the link stays a link.
            if let existing = FileSystem.resolved(path) {
                try FileSystem.writeAtomically(edited, to: existing.path, mode: existing.mode)
            } else {
                try FileSystem.makeFolders(FileSystem.parentFolder(of: path), mode: 0o700)
                try FileSystem.writeAtomically(edited, to: path, mode: 0o644)
            }
        }
        let after = try ConfigFile.load(path: path)
        let was = inEffect(before.settings).text(of: setting, withUnit: false)
        let now = inEffect(after.settings).text(of: setting, withUnit: false)
        if json { return Output.line(JSONValue.object([(setting.rawValue, Self.json(inEffect(after.settings)[setting]))]).prettyText) }
        Output.line(newValue == nil
            ? "\(setting.rawValue) is \(now) again, its default (it was \(was))."
            : "\(setting.rawValue) is now \(now)\(was == now ? "" : " (it was \(was))"), in \(path).")
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
