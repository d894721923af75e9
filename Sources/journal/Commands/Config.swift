import ArgumentParser
import CommandLineSupport
import JournalKit

struct Config: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the settings in effect and where each comes from.",
        discussion: """
            Settings live in $XDG_CONFIG_HOME/journal/config.toml (by default ~/.config/journal/config.toml):
              half_life_hours = 5        # how fast caffeine leaves you (1 to 48)
              daily_limit_mg = 400       # the FDA's figure for healthy adults
              sleep_threshold_mg = 50    # under this, caffeine no longer keeps you awake
              bedtime = "23:00"          # status says what is left of the night's room (off by default)
              day_starts_at = "04:00"    # when "today" begins, for a day that ends after midnight
            """)

    @OptionGroup var output: OutputOptions

    func run() async throws {
        let config = try ConfigFile.load()
        let keys = JournalSettings.Key.allCases
        func source(_ key: JournalSettings.Key) -> String {
            switch config.source(of: key) {
            case .builtInDefault: return "default"
            case .file(let line): return "\(config.path), line \(line)"
            }
        }
        if output.json {
            Output.line(JSONValue.object([
                ("file", .string(config.path)),
                ("settings", .object(keys.map { key in
                    (key.rawValue, .object([("value", json(config.settings[key])), ("source", .string(source(key)))]))
                })),
            ]).prettyText)
            return
        }
        let rows = keys.map { [$0.rawValue, config.settings.text(of: $0), source($0)] }
        Output.line(Output.table(["SETTING", "VALUE", "FROM"], rows))
    }

    private func json(_ value: JournalSettings.Value) -> JSONValue {
        switch value {
        case .number(let number): return .number(number)
        case .clockTime(let time): return time.map { .string($0.description) } ?? .null
        }
    }
}
