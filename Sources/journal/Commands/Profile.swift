import ArgumentParser
import CommandLineSupport
import JournalKit

struct Profile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show the model of your caffeine and where each part comes from, or set a part: journal profile weight_kg 70.",
        discussion: """
            The profile's settings sync with the others (see journal config), so every machine gives the same \
            numbers; --local keeps a value to this machine, in config.toml:
              weight_kg = 70              # for the level in mg/L
              conditions = ["smoker"]     # each multiplies the half-life by its factor
              half_life_hours = 6.5       # typed in, it wins over the conditions
              model = "personal"          # or "coffee-tracker"

            Until a weight or a condition is set, the model is Coffee Tracker's (Apple's sample): the whole dose \
            in you at once, halved every 5 hours. With one, it is the personal model: each drink absorbed at its \
            form's rate (a beverage peaks about 40 minutes after, a soft drink or chocolate after 1.75 hours), \
            eliminated at your half-life; model = "coffee-tracker" keeps Coffee Tracker's.

            The conditions, the factor each multiplies the half-life by, and its study:
            \(Condition.allCases.map { "  \($0.rawValue) x\(formatExactly($0.factor)): \($0.source)" }.joined(separator: "\n"))

            The half-life without any is 5 hours (\(CaffeineModel.defaultHalfLifeSource)), and the model takes at most \
            \(formatMilligrams(CaffeineModel.longestHalfLifeHours)) hours. Caffeine spreads through \
            \(formatExactly(DistributionVolume.litresPerKilogram)) L per kg of body weight (\(DistributionVolume.source)).
            """)

    @Argument(
        help: ArgumentHelp("A part of the profile: weight_kg, conditions, half_life_hours or model.", valueName: "setting"),
        completion: .custom(CompletionWords.profileSettings))
    var key: String?

    /// As `config`'s: a value that starts with a dash is a value.
    @Argument(
        parsing: .allUnrecognized, help: ArgumentHelp("Its new value, such as 70, smoker,oral-contraceptives or personal.", valueName: "value"),
        completion: .custom(CompletionWords.settingValues))
    var values: [String] = []

    var value: String? { values.first }

    @Flag(name: .long, help: "Take the setting back to its default.")
    var unset = false

    @Flag(name: .long, help: "Set or unset this machine's own value, in config.toml, which wins here over what syncs.")
    var local = false

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    /// The settings `journal profile` sets; the others are `journal config`'s.
    static let keys = JournalSettings.Key.profile

    func validate() throws {
        try Config.checkValues(values)
        if unset && (key == nil || value != nil) { throw ValidationError("--unset takes a setting's name alone, such as --unset weight_kg.") }
        if key != nil && value == nil && !unset { throw ValidationError("Give the setting a value, such as journal profile weight_kg 70, or --unset it.") }
        if local && key == nil { throw ValidationError("--local takes a setting's name, such as journal profile --local weight_kg 70.") }
    }

    func run() async throws {
        if let key {
            let setting = try Config.setting(named: key)
            guard Self.keys.contains(setting) else {
                throw NotInProfile(setting: setting)
            }
            try await Config.change(setting, to: unset ? nil : value, local: local, global: global, json: output.json)
            if output.json { return }
            Output.line("")
        }
        let (config, synced, _) = try await Config.read(global)
        let settings = config.inEffect(synced: synced)
        if output.json { return Output.line(Self.json(settings).prettyText) }
        Self.print(settings)
    }

    static func json(_ settings: JournalSettings) -> JSONValue {
        let model = settings.model
        return .object([
            ("model", .string(model.kind.rawValue)),
            ("half_life_hours", .number(roundedToHundredths(model.halfLifeHours))),
            ("half_life_source", .string(halfLifeSource(settings))),
            ("weight_kg", settings.weightKg.map { .number($0) } ?? .null),
            // As config.toml lists them; each with its factor and study apart.
            ("conditions", .array(settings.conditions.map { .string($0.rawValue) })),
            ("condition_factors", .array(settings.conditions.map { condition in
                .object([
                    ("name", .string(condition.rawValue)), ("factor", .number(condition.factor)),
                    ("meaning", .string(condition.meaning)), ("source", .string(condition.source)),
                ])
            })),
            ("volume_l_per_kg", .number(DistributionVolume.litresPerKilogram)),
            ("volume_l", settings.weightKg.map { .number(roundedToHundredths($0 * DistributionVolume.litresPerKilogram)) } ?? .null),
            ("absorption_per_hour", .object(DrinkForm.allCases.map { ($0.rawValue, .number($0.absorptionPerHour)) })),
            ("peak_minutes", .object(DrinkForm.allCases.map { form in
                (form.rawValue, .number(roundedToHundredths(CaffeineModel(kind: .personal, halfLifeHours: model.halfLifeHours).peakHours(form) * 60)))
            })),
        ])
    }

    /// Where the half-life in effect comes from, in a phrase.
    static func halfLifeSource(_ settings: JournalSettings) -> String {
        if settings.halfLifeHours != nil { return "half_life_hours" }
        if settings.conditions.isEmpty { return "default" }
        return settings.halfLifeInEffect < settings.conditionsHalfLifeHours ? "conditions, capped" : "conditions"
    }

    static func print(_ settings: JournalSettings) {
        let model = settings.model
        let why: String
        switch (settings.modelChoice, model.kind) {
        case (_?, _): why = "as the model setting says"
        case (nil, .personal): why = "a weight or a condition is set"
        case (nil, .coffeeTracker): why = "no weight or condition is set"
        }
        Output.labelled("Model         " + Output.bold(model.kind == .personal ? "personal" : "Coffee Tracker's") + " (\(why))")
        let hours = "\(formatExactly(roundedToHundredths(model.halfLifeHours))) hours"
        if let typed = settings.halfLifeHours {
            Output.labelled("Half-life     \(formatExactly(typed)) hours, as half_life_hours says (it wins over any condition)")
        } else {
            Output.labelled("Half-life     \(hours)")
            Output.labelled("  5 hours     the mean adult's (\(CaffeineModel.defaultHalfLifeSource))")
            for condition in settings.conditions {
                let factor = formatExactly(condition.factor)
                Output.labelled("  x \(factor)" + String(repeating: " ", count: max(1, 10 - factor.count))
                    + "\(condition.meaning) (\(condition.source))")
            }
            if settings.halfLifeInEffect < settings.conditionsHalfLifeHours {
                Output.labelled("  capped      at \(formatMilligrams(CaffeineModel.longestHalfLifeHours)) hours, the longest the model takes "
                    + "(\(formatExactly(roundedToHundredths(settings.conditionsHalfLifeHours))) by the factors)")
            }
        }
        if let weight = settings.weightKg {
            Output.labelled("Weight        \(formatMilligrams(weight)) kg: caffeine spreads through "
                + "\(formatExactly(roundedToHundredths(weight * DistributionVolume.litresPerKilogram))) L (\(formatExactly(DistributionVolume.litresPerKilogram)) L/kg, "
                + "\(DistributionVolume.source))")
        } else {
            Output.labelled("Weight        not set (journal profile weight_kg 70 gives the level in mg/L too)")
        }
        if model.kind == .personal {
            for form in DrinkForm.allCases {
                let label = form == .beverage ? "Beverage      " : "Slow drink    "
                Output.labelled(label + "absorbed at \(formatExactly(form.absorptionPerHour)) per hour: peaks "
                    + "\(minutes(model.peakHours(form))) after a drink (\(form.source))")
            }
        } else {
            Output.labelled("Absorption    none: the whole dose is in you at once, as in Apple's Coffee Tracker sample")
        }
    }

    /// "39 min", "1 h 45 min".
    private static func minutes(_ hours: Double) -> String {
        let total = Int((hours * 60).rounded())
        return total < 60 ? "\(total) min" : "\(total / 60) h \(total % 60) min"
    }
}

/// A setting `journal profile` was given that is `journal config`'s.
struct NotInProfile: JournalFailure {
    let setting: JournalSettings.Key

    var kind: FailureKind { .usage }
    var description: String { "\(setting.rawValue) is not part of the profile: set it with journal config \(setting.rawValue)." }
}
