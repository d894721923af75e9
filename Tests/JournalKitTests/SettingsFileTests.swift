import Testing
import TestSupport

@testable import JournalKit

/// The settings file: TOML's `key = number` lines, every refusal with its line.
@Suite(.onTestThreads) struct SettingsFileTests {
    func parse(_ text: String) throws(SettingsError) -> JournalSettings {
        try SettingsFile.parse(Array(text.utf8), path: "config.toml").settings
    }

    @Test(arguments: [("5", 5.0), ("+5", 5), ("1_0", 10), ("5.5", 5.5), ("5e0", 5), ("0.5e1", 5), ("48", 48), ("72", 72)])
    func readsTOMLNumbers(text: String, value: Double) throws {
        #expect(SettingsFile.number(text) == value)
    }

    @Test(arguments: ["05", "5_", "_5", "1__0", "inf", "nan", "0x10", "five", "\"5\"", "5 5", "", "1e", "--5"])
    func refusesWhatIsNotADecimalNumber(text: String) {
        #expect(SettingsFile.number(text) == nil || !(SettingsFile.number(text)?.isFinite ?? false))
    }

    @Test func readsCommentsQuotedKeysAndWindowsLineEnds() throws {
        let settings = try parse("# mine\r\n\"half_life_hours\" = 6 # slower\r\n\n  'daily_limit_mg'=300\r\n")
        #expect(settings.halfLifeHours == 6 && settings.dailyLimitMg == 300 && settings.sleepThresholdMg == 50)
    }

    @Test(arguments: [
        ("half_life_hours = 5\nhalf_life_hours = 6\n", 2, "set twice (first on line 1)"),
        ("half_life_hours = true\n", 1, "must be a number of hours"),
        ("half_life_hours = \"\"\"\n5\n\"\"\"\n", 1, "must be a number"),
        ("a.b = 5\n", 1, "no such setting"),
        ("[t]\n", 1, "not in tables"),
        ("= 5\n", 1, "not a setting"),
        ("half_life_hours = 73\n", 1, "73 is out of range"),
    ])
    func refusesWithTheLine(text: String, line: Int, problem: String) {
        let error = #expect(throws: SettingsError.self) { _ = try parse(text) }
        #expect(error?.line == line)
        #expect(error?.description.contains(problem) == true, "\(error?.description ?? "")")
    }

    @Test func readsTimesOfDayQuotedOrAsTOMLTimes() throws {
        let settings = try parse("bedtime = \"23:00\"\nday_starts_at = 04:30:00 # late\n")
        #expect(settings.bedtime == ClockTime(hour: 23, minute: 0) && settings.dayStartsAt == ClockTime(hour: 4, minute: 30))
        #expect(try parse("bedtime = '7:05'\n").bedtime == ClockTime(hour: 7, minute: 5))
        #expect(try parse("").bedtime == nil && (try parse("")).dayStartsAt == .midnight)
    }

    @Test(arguments: ["\"24:00\"", "\"13pm\"", "23", "11pm", "\"23:60\"", "\"23:00:30\"", "\"\"", "5", "true", "\"23:00", "\" 23:00\""])
    func refusesWhatIsNotATimeOfDay(value: String) {
        let error = #expect(throws: SettingsError.self) { _ = try parse("bedtime = \(value)\n") }
        #expect(error?.description.contains("bedtime: it must be a time of day, in quotes, such as bedtime = \"23:00\"") == true,
                "\(error?.description ?? "")")
    }

    /// The file takes a time as `--bedtime` does, in quotes.
    @Test func readsATimeAsTheCommandLineWritesIt() throws {
        #expect(try parse("bedtime = \"11pm\"\n").bedtime == ClockTime(hour: 23, minute: 0))
        #expect(try parse("day_starts_at = '4:30am'\n").dayStartsAt == ClockTime(hour: 4, minute: 30))
    }

    /// A file of another format is told as such, by its first line.
    @Test(arguments: [("{\"bedtime\": \"23:00\"}\n", "JSON"), ("<config/>\n", "XML"), ("---\nbedtime: 23:00\n", "YAML")])
    func anotherFormatIsSaidByName(text: String, format: String) {
        let error = #expect(throws: SettingsError.self) { _ = try parse(text) }
        #expect(error?.description.contains("it is not TOML (it reads as \(format))") == true, "\(error?.description ?? "")")
    }

    func edited(_ text: String, _ key: JournalSettings.Key, _ value: JournalSettings.Value?) throws -> String {
        String(decoding: try SettingsFile.edited(Array(text.utf8), path: "config.toml", setting: key, to: value), as: UTF8.self)
    }

    /// A setting changed by `journal config` changes its line alone: comments, quotes, other lines and
    /// line ends stay as the person wrote them.
    @Test func anEditChangesOneLineAndKeepsTheRest() throws {
        let file = "# mine\r\ndaily_limit_mg = 300   # doctor said\r\n\nbedtime = '23:00'\r\n"
        #expect(try edited(file, .dailyLimitMg, .number(250)) == "# mine\r\ndaily_limit_mg = 250 # doctor said\r\n\nbedtime = '23:00'\r\n")
        #expect(try edited(file, .bedtime, nil) == "# mine\r\ndaily_limit_mg = 300   # doctor said\r\n\n")
        #expect(try edited(file, .halfLifeHours, .number(4.5)) == file + "half_life_hours = 4.5\n")
        #expect(try edited("", .bedtime, .clockTime(ClockTime(hour: 22, minute: 30))) == "bedtime = \"22:30\"\n")
        #expect(try edited("bedtime = \"23:00\"", .bedtime, nil) == "")
        // A file that is no settings file is not written over.
        #expect(throws: SettingsError.self) { _ = try edited("{}\n", .bedtime, nil) }
    }

    @Test(arguments: [("23:00", 1380), ("7:30", 450), ("00:00", 0), ("11pm", 1380), ("12am", 0), ("12:30pm", 750), ("23:59:00", 1439)])
    func readsAClockTime(text: String, minutes: Int) {
        #expect(ClockTime.parse(text)?.minutes == minutes)
    }

    @Test(arguments: ["24:00", "13pm", "0am", "7", "7:5", "07:30:01", "-1:00", "１２:００", "", "23:00 ", "12:30:00pm"])
    func refusesWhatIsNotAClockTime(text: String) {
        #expect(ClockTime.parse(text) == nil)
    }
}
