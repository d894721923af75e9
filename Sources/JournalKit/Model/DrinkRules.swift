/// The one rule for what a drink and a custom drink may be, whichever way they come: the command
/// line, an import, another device. It depends on nothing but the record (not on the time of day), so
/// every device refuses the same records and they all still converge.
public enum DrinkRules {
    /// 1900-01-01T00:00Z: earlier is a typo ("2000 weeks ago"), not a drink.
    public static let earliest = Timestamp(milliseconds: -2_208_988_800_000)
    /// 2200-01-01T00:00Z, excluded.
    public static let end = Timestamp(milliseconds: 7_258_118_400_000)
    /// The longest note, in Unicode scalars (a count that does not change with Unicode versions).
    public static let maximumNoteLength = 1000
    /// The longest drink name.
    public static let maximumNameLength = DrinkName.maximumLength

    public static func check(time: Timestamp) throws(InvalidRecordError) {
        guard time >= earliest, time < end else {
            throw InvalidRecordError(
                problem: "a drink's time must be between 1900 and 2199 (this one is \(time.milliseconds) ms from 1970)",
                kind: .badData)
        }
    }

    public static func check(note: String?) throws(InvalidRecordError) {
        guard let note else { return }
        let length = note.unicodeScalars.count
        guard length <= maximumNoteLength else {
            throw InvalidRecordError(
                problem: "a note holds at most \(maximumNoteLength) characters (this one has \(length))", kind: .usage)
        }
    }

    /// A drink name (`DrinkName`): letters of any script, digits and dashes, starting with a letter.
    public static func check(name: String) throws(InvalidRecordError) {
        try DrinkName.check(name)
    }

    public static func check(caffeineMg: Double) throws(InvalidRecordError) {
        _ = try CaffeineDose.validated(caffeineMg)
    }

    public static func check(id: String) throws(InvalidRecordError) {
        guard UUIDText.isCanonical(id) else {
            throw InvalidRecordError(problem: "'\(id)' is not a drink id (a lowercase UUID)", kind: .badData)
        }
    }
}
