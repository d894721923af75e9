/// What a person may enter, on top of `DrinkRules`: a drink they had, so not one more than five
/// minutes after now. Every way a person enters drinks checks it (the command line, a journal
/// export, an Apple Health export), against the program's clock (which `JOURNAL_NOW` sets).
///
/// It is not one of `DrinkRules`, and a record from another device is never checked against it:
/// "now" differs from device to device and moves on, so the same record would be refused on one and
/// kept on another, and the journals would no longer converge. `DrinkRules` depends on the record only.
public enum EntryRules {
    /// How far ahead of now a time may be: clocks of two devices and a typing person's "now" differ.
    public static let futureTolerance: Duration = .seconds(5 * 60)

    /// True when a drink at `time` may be entered at `now`.
    public static func allows(_ time: Timestamp, now: Timestamp) -> Bool {
        time <= now + futureTolerance
    }

    /// Refuses a drink time more than `futureTolerance` after `now`; `what` names it in the message
    /// ("consumed_at 2199-12-31T08:00:00Z").
    public static func check(time: Timestamp, now: Timestamp, what: String) throws(InvalidRecordError) {
        guard allows(time, now: now) else {
            throw InvalidRecordError(
                problem: "\(what) is in the future: a drink can be entered up to 5 minutes ahead of now", kind: .badData)
        }
    }
}
