/// What a person may enter, on top of `DrinkRules`: a drink they had, so not one more than five
/// minutes after their now. It holds whoever enters the drink, against the now they entered it at:
///
/// - a person, at the command line or with an export (a journal's, Apple Health's): the program's
///   clock, which `JOURNAL_NOW` sets;
/// - another device: the record carries its writer's now, the milliseconds of its hybrid clock
///   reading (`HybridTimestamp.physicalTime`). A record says the same on every device, so every
///   device refuses the same records and the journals still converge. The receiving device's own
///   now is never used: it differs from device to device and moves on, so the same record would be
///   refused on one and kept on another.
///
/// A record whose clock lies as much as its time (both in 2199) passes this rule; what such a drink
/// cannot do is count before its time comes (`FutureDrinks`).
public enum EntryRules {
    /// How far ahead of now a time may be: clocks of two devices and a typing person's "now" differ.
    public static let futureTolerance: Duration = .seconds(5 * 60)

    /// The latest time of a drink entered at `now`; a later one has not been had yet.
    public static func latest(at now: Timestamp) -> Timestamp { now + futureTolerance }

    /// True when a drink at `time` may be entered at `now`.
    public static func allows(_ time: Timestamp, now: Timestamp) -> Bool {
        time <= latest(at: now)
    }

    /// Refuses a drink time more than `futureTolerance` after `now`; `what` names it in the message
    /// ("consumed_at 2199-12-31T08:00:00Z").
    public static func check(time: Timestamp, now: Timestamp, what: String) throws(InvalidRecordError) {
        guard allows(time, now: now) else {
            throw InvalidRecordError(
                problem: "\(what) is in the future: a drink can be entered up to 5 minutes ahead of now", kind: .badData)
        }
    }

    /// Refuses a record dated more than `futureTolerance` after the time its clock says it was written:
    /// another device's, or one of this journal's own, which it then does not publish.
    public static func check(time: Timestamp, writtenAt clock: HybridTimestamp) throws(InvalidRecordError) {
        let written = clock.physicalTime
        guard allows(time, now: written) else {
            throw InvalidRecordError(
                problem: "it is dated \(LocalTime.display(time)), more than 5 minutes after it was written at "
                    + "\(LocalTime.display(written)): a drink can be entered up to 5 minutes ahead of now",
                kind: .badData)
        }
    }
}
