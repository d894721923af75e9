/// The settings a person can change in `config.toml`, with their defaults and the values that make sense.
public struct JournalSettings: Sendable, Equatable {
    /// A setting's name in `config.toml`.
    public enum Key: String, CaseIterable, Sendable {
        /// The settings `journal profile` sets, which describe the body; the others are `journal config`'s.
        public static let profile: [Key] = [.weightKg, .conditions, .halfLifeHours, .model]

        case halfLifeHours = "half_life_hours"
        case weightKg = "weight_kg"
        case conditions
        case model
        case dailyLimitMg = "daily_limit_mg"
        case sleepThresholdMg = "sleep_threshold_mg"
        case bedtime = "bedtime"
        case dayStartsAt = "day_starts_at"

        /// What kind of value the setting takes.
        public enum Kind: Sendable {
            /// A number in `allowed`, of `unit`.
            case number(allowed: ClosedRange<Double>, unit: String)
            /// A time of day, `"23:00"`.
            case clockTime
            /// A list of `Condition`s, `["smoker"]`.
            case conditions
            /// A `CaffeineModel.Kind`, `"personal"`.
            case model
        }

        public var kind: Kind {
            switch self {
            // Healthy adults 1.5 to 9.5 hours; pregnancy and some medicines make it much longer.
            case .halfLifeHours: return .number(allowed: 1...CaffeineModel.longestHalfLifeHours, unit: "hours")
            case .weightKg: return .number(allowed: 20...400, unit: "kg")
            case .conditions: return .conditions
            case .model: return .model
            case .dailyLimitMg: return .number(allowed: 1...2000, unit: "mg")
            case .sleepThresholdMg: return .number(allowed: 1...1000, unit: "mg")
            case .bedtime, .dayStartsAt: return .clockTime
            }
        }

        /// An example line for messages: `half_life_hours = 5`, `bedtime = "23:00"`.
        public var example: String {
            switch self {
            case .bedtime: return "bedtime = \"23:00\""
            case .dayStartsAt: return "day_starts_at = \"04:00\""
            case .halfLifeHours: return "half_life_hours = 5"
            case .weightKg: return "weight_kg = 70"
            case .conditions: return "conditions = [\"smoker\"]"
            case .model: return "model = \"personal\""
            default: return "\(rawValue) = \(JournalSettings.defaults.text(of: self, withUnit: false))"
            }
        }
    }

    /// A setting's value, of its key's kind.
    public enum Value: Sendable, Equatable {
        /// A number; nil for a setting that is not set (no weight).
        case number(Double?)
        /// A time of day; nil for a setting that is off (no bedtime).
        case clockTime(ClockTime?)
        case conditions([Condition])
        /// nil: the model follows from the profile (`JournalSettings.modelKind`).
        case model(CaffeineModel.Kind?)
    }

    /// A half-life the person typed in: it wins over the conditions' (`halfLifeInEffect`); nil when not set.
    public var halfLifeHours: Double?
    /// Body weight, for the level in mg/L; nil when not set.
    public var weightKg: Double?
    public var conditions: [Condition]
    /// The model the person chose; nil to let the profile choose (`modelKind`).
    public var modelChoice: CaffeineModel.Kind?
    public var dailyLimitMg: Double
    public var sleepThresholdMg: Double
    /// When the person goes to bed, for what `status` says of the night; nil when not set.
    public var bedtime: ClockTime?
    /// When a day ends and the next begins for "today", the daily limit and `stats`: midnight unless
    /// the person's day ends later.
    public var dayStartsAt: ClockTime

    public init(
        halfLifeHours: Double? = nil, weightKg: Double? = nil, conditions: [Condition] = [], modelChoice: CaffeineModel.Kind? = nil,
        // The FDA's figure for healthy adults.
        dailyLimitMg: Double = 400,
        sleepThresholdMg: Double = 50, bedtime: ClockTime? = nil, dayStartsAt: ClockTime = .midnight
    ) {
        self.halfLifeHours = halfLifeHours
        self.weightKg = weightKg
        self.conditions = conditions
        self.modelChoice = modelChoice
        self.dailyLimitMg = dailyLimitMg
        self.sleepThresholdMg = sleepThresholdMg
        self.bedtime = bedtime
        self.dayStartsAt = dayStartsAt
    }

    public static let defaults = JournalSettings()

    public subscript(key: Key) -> Value {
        get {
            switch key {
            case .halfLifeHours: return .number(halfLifeHours)
            case .weightKg: return .number(weightKg)
            case .conditions: return .conditions(conditions)
            case .model: return .model(modelChoice)
            case .dailyLimitMg: return .number(dailyLimitMg)
            case .sleepThresholdMg: return .number(sleepThresholdMg)
            case .bedtime: return .clockTime(bedtime)
            case .dayStartsAt: return .clockTime(dayStartsAt)
            }
        }
        set {
            switch (key, newValue) {
            case (.halfLifeHours, .number(let value)): halfLifeHours = value
            case (.weightKg, .number(let value)): weightKg = value
            case (.conditions, .conditions(let value)): conditions = value
            case (.model, .model(let value)): modelChoice = value
            case (.dailyLimitMg, .number(let value)): dailyLimitMg = value ?? Self.defaults.dailyLimitMg
            case (.sleepThresholdMg, .number(let value)): sleepThresholdMg = value ?? Self.defaults.sleepThresholdMg
            case (.bedtime, .clockTime(let value)): bedtime = value
            case (.dayStartsAt, .clockTime(let value)): dayStartsAt = value ?? .midnight
            default: preconditionFailure("\(newValue) is not a value of \(key.rawValue)")
            }
        }
    }

    /// How `config` shows a setting's value: `5 hours`, `400 mg`, `23:00`, `off`, `smoker, fluvoxamine`.
    public func text(of key: Key, withUnit: Bool = true) -> String {
        switch (self[key], key.kind) {
        case (.number(let value?), .number(_, let unit)): return formatMilligrams(value) + (withUnit ? " " + unit : "")
        case (.number(nil), _): return "not set"
        case (.clockTime(let time), _): return time?.description ?? "off"
        case (.conditions(let conditions), _): return conditions.isEmpty ? "none" : conditions.map(\.rawValue).joined(separator: ", ")
        case (.model(let kind), _): return kind?.rawValue ?? "not set"
        default: return ""
        }
    }
}

/// A setting in `config.toml` that cannot be used; names the file, the line and the key.
public struct SettingsError: JournalFailure, Equatable {
    public let path: String
    public let line: Int?
    public let key: String?
    public let problem: String

    public init(path: String, line: Int?, key: String?, problem: String) {
        self.path = path
        self.line = line
        self.key = key
        self.problem = problem
    }

    public var kind: FailureKind { .badData }
    public var remedy: Remedy? { .showSettings }

    public var description: String {
        let keys = JournalSettings.Key.allCases.map(\.rawValue).joined(separator: ", ")
        return "\(place): \(problem). The settings are \(keys)."
    }

    /// The file, the line and the key the problem is at.
    public var place: String {
        var place = JournalPaths.shown(path)
        if let line { place += ", line \(line)" }
        if let key { place += ", \(key)" }
        return place
    }
}
