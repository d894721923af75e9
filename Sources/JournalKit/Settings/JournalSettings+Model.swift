/// The one rule for the model in effect: every number of `status`, the forecasts and the chart comes
/// from `model`.
extension JournalSettings {
    /// The model chosen, else the personal one once a weight or a condition is set, else Coffee Tracker's.
    public var modelKind: CaffeineModel.Kind {
        modelChoice ?? (weightKg != nil || !conditions.isEmpty ? .personal : .coffeeTracker)
    }

    /// The half-life typed in, else the mean adult one times each condition's factor, at most
    /// `CaffeineModel.longestHalfLifeHours`.
    public var halfLifeInEffect: Double {
        halfLifeHours ?? min(conditionsHalfLifeHours, CaffeineModel.longestHalfLifeHours)
    }

    /// The mean adult half-life times each condition's factor, before any cap.
    public var conditionsHalfLifeHours: Double {
        conditions.reduce(CaffeineModel.defaultHalfLifeHours) { $0 * $1.factor }
    }

    public var model: CaffeineModel { CaffeineModel(kind: modelKind, halfLifeHours: halfLifeInEffect, weightKg: weightKg) }
}
