import Testing
import TestSupport

@testable import JournalKit

/// The profile's settings in `config.toml`, and the model and half-life they put in effect.
@Suite(.onTestThreads) struct ProfileSettingsTests {
    func parse(_ text: String) throws(SettingsError) -> JournalSettings {
        try SettingsFile.parse(Array(text.utf8), path: "config.toml").settings
    }

    @Test func readsAWeightConditionsAndAModel() throws {
        let settings = try parse("weight_kg = 70\nconditions = [\"smoker\", 'oral-contraceptives',]\nmodel = \"coffee-tracker\"\n")
        #expect(settings.weightKg == 70)
        #expect(settings.conditions == [.smoker, .oralContraceptives])
        #expect(settings.modelChoice == .coffeeTracker)
        #expect(try parse("conditions = []\n").conditions.isEmpty)
    }

    @Test(arguments: [
        ("conditions = [\"smokers\"]\n", "'smokers' is not a condition"),
        ("conditions = \"smoker\"\n", "it must be a list in brackets"),
        ("conditions = [smoker]\n", "it must be a list in brackets"),
        ("conditions = [\"smoker\", \"smoker\"]\n", "smoker is listed twice"),
        ("conditions = [\"pregnancy-1\", \"pregnancy-3\"]\n", "pregnancy-1 and pregnancy-3 cannot both hold"),
        ("model = \"bateman\"\n", "'bateman' is not a model: it is coffee-tracker or personal"),
        ("model = personal\n", "it must be coffee-tracker or personal, in quotes"),
        ("weight_kg = 2000\n", "2000 is out of range: use 20 to 400 kg"),
    ])
    func refusesWithTheLine(text: String, problem: String) {
        let error = #expect(throws: SettingsError.self) { _ = try parse(text) }
        #expect(error?.line == 1)
        #expect(error?.description.contains(problem) == true, "\(error?.description ?? "")")
    }

    /// A command line names conditions by commas or spaces, and `none` clears them.
    @Test func aCommandLineListsConditionsInWords() throws {
        #expect(try SettingsFile.value("smoker,fluvoxamine", of: .conditions, quoted: false) == .conditions([.smoker, .fluvoxamine]))
        #expect(try SettingsFile.value("Smoker  pregnancy-2", of: .conditions, quoted: false) == .conditions([.smoker, .pregnancy2]))
        #expect(try SettingsFile.value("none", of: .conditions, quoted: false) == .conditions([]))
        #expect(try SettingsFile.value("personal", of: .model, quoted: false) == .model(.personal))
    }

    /// What a command line sets is written so that the file reads it back the same.
    @Test func whatIsWrittenReadsBack() throws {
        var bytes: [UInt8] = []
        for (key, value) in [(JournalSettings.Key.conditions, "smoker,pregnancy-3"), (.model, "personal"), (.weightKg, "72.5")] {
            bytes = try SettingsFile.edited(bytes, path: "config.toml", setting: key, to: try SettingsFile.value(value, of: key, quoted: false))
        }
        let settings = try SettingsFile.parse(bytes, path: "config.toml").settings
        #expect(settings.conditions == [.smoker, .pregnancy3] && settings.modelChoice == .personal && settings.weightKg == 72.5)
    }

    /// Coffee Tracker's model until a weight or a condition is set; then the personal one, unless
    /// `model` says otherwise.
    @Test func theModelFollowsTheProfileUnlessChosen() {
        #expect(JournalSettings().modelKind == .coffeeTracker)
        #expect(JournalSettings(weightKg: 60).modelKind == .personal)
        #expect(JournalSettings(conditions: [.smoker]).modelKind == .personal)
        #expect(JournalSettings(weightKg: 60, modelChoice: .coffeeTracker).modelKind == .coffeeTracker)
        #expect(JournalSettings(modelChoice: .personal).modelKind == .personal)
        // A half-life typed in alone changes Coffee Tracker's half-life, not the model.
        #expect(JournalSettings(halfLifeHours: 7).model == CaffeineModel(kind: .coffeeTracker, halfLifeHours: 7))
    }

    /// The half-life is the mean adult's times each condition's factor, at most 72 hours; one typed
    /// in wins.
    @Test func theHalfLifeComesFromTheConditionsUnlessTypedIn() {
        #expect(JournalSettings().halfLifeInEffect == 5)
        #expect(abs(JournalSettings(conditions: [.smoker]).halfLifeInEffect - 2.9) < 1e-12)
        #expect(abs(JournalSettings(conditions: [.oralContraceptives, .smoker]).halfLifeInEffect - 5 * 1.73 * 0.58) < 1e-12)
        #expect(abs(JournalSettings(conditions: [.pregnancy2]).halfLifeInEffect - 9.65) < 1e-12)
        #expect(JournalSettings(conditions: [.fluvoxamine, .pregnancy3]).halfLifeInEffect == 72)
        #expect(JournalSettings(halfLifeHours: 4, conditions: [.fluvoxamine]).halfLifeInEffect == 4)
    }
}
