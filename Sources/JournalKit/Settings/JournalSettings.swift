/// The settings a person can change in `config.toml`, with their defaults and the values that make sense.
public struct JournalSettings: Sendable, Equatable {
    /// A setting's name in `config.toml`.
    public enum Key: String, CaseIterable, Sendable {
        case halfLifeHours = "half_life_hours"
        case dailyLimitMg = "daily_limit_mg"
        case sleepThresholdMg = "sleep_threshold_mg"

        /// What a value must be, for error messages.
        public var allowed: ClosedRange<Double> {
            switch self {
            // Healthy adults 1.5 to 9.5 hours; pregnancy and some medicines make it much longer.
            case .halfLifeHours: return 1...48
            case .dailyLimitMg: return 1...2000
            case .sleepThresholdMg: return 1...1000
            }
        }

        public var unit: String { self == .halfLifeHours ? "hours" : "mg" }

        public var defaultValue: Double {
            switch self {
            case .halfLifeHours: return CaffeineModel.defaultHalfLifeHours
            // The FDA's figure for healthy adults.
            case .dailyLimitMg: return 400
            case .sleepThresholdMg: return 50
            }
        }
    }

    public var halfLifeHours: Double
    public var dailyLimitMg: Double
    public var sleepThresholdMg: Double

    public init(
        halfLifeHours: Double = Key.halfLifeHours.defaultValue, dailyLimitMg: Double = Key.dailyLimitMg.defaultValue,
        sleepThresholdMg: Double = Key.sleepThresholdMg.defaultValue
    ) {
        self.halfLifeHours = halfLifeHours
        self.dailyLimitMg = dailyLimitMg
        self.sleepThresholdMg = sleepThresholdMg
    }

    public static let defaults = JournalSettings()

    public subscript(key: Key) -> Double {
        get {
            switch key {
            case .halfLifeHours: return halfLifeHours
            case .dailyLimitMg: return dailyLimitMg
            case .sleepThresholdMg: return sleepThresholdMg
            }
        }
        set {
            switch key {
            case .halfLifeHours: halfLifeHours = newValue
            case .dailyLimitMg: dailyLimitMg = newValue
            case .sleepThresholdMg: sleepThresholdMg = newValue
            }
        }
    }

    public var model: CaffeineModel { CaffeineModel(halfLifeHours: halfLifeHours) }
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
        var place = path
        if let line { place += ", line \(line)" }
        if let key { place += ", \(key)" }
        let keys = JournalSettings.Key.allCases.map(\.rawValue).joined(separator: ", ")
        return "\(place): \(problem). The settings are \(keys)."
    }
}
