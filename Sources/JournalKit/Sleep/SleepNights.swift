/// The nights in a tracker's samples, by the rules `journal import` documents:
///
/// - A sample belongs to the night of its start: the evening of that day, or of the day before when it
///   starts between midnight and noon (`NightDate`).
/// - A nap is not a night: within a night, samples of every source that follow each other with less
///   than an hour between them make a session, and a session under 3 hours that starts between noon
///   and 18:00 is left out.
/// - A night is counted once, from one source: the one named, else the one with the most time asleep
///   (the first by name on a tie). Sources are never summed.
/// - Lights-out is the start of that source's first in-bed sample; where it has none, the earliest
///   in-bed sample of another source that night; else its first sample of sleep. It is never later
///   than that first sample of sleep.
/// - Asleep in all is the time covered by its samples of sleep (any stage); an awakening is a gap
///   between two of them of 5 minutes or more, or a shorter one an awake sample of it falls in.
public enum SleepNights {
    /// Samples further apart than this are two sessions.
    static let sessionGap: Int64 = 3_600_000
    /// A session shorter than this, starting between noon and 18:00, is a nap.
    static let longestNap: Int64 = 3 * 3_600_000
    /// A gap in sleep this long is an awakening, awake sample or not.
    static let awakeningGap: Int64 = 5 * 60_000

    /// What the samples hold: the nights, and the nights left out with why.
    public struct Outcome: Sendable, Equatable {
        public var nights: [Night] = []
        /// Nights whose samples make no night to count: no sleep from the source named, or figures
        /// the rules refuse.
        public var leftOut: [(date: LocalDate, reason: String)] = []
        /// Sessions left out as naps.
        public var naps = 0

        public static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            lhs.nights == rhs.nights && lhs.naps == rhs.naps && lhs.leftOut.map(\.date) == rhs.leftOut.map(\.date)
                && lhs.leftOut.map(\.reason) == rhs.leftOut.map(\.reason)
        }
    }

    /// The nights of `samples`, each from `source` when given.
    public static func nights(in samples: [SleepSample], source named: String? = nil) -> Outcome {
        var byNight: [LocalDate: [SleepSample]] = [:]
        for sample in samples where sample.end > sample.start { byNight[NightDate.of(lightsOut: sample.start), default: []].append(sample) }
        var outcome = Outcome()
        for date in byNight.keys.sorted() {
            var kept: [SleepSample] = []
            for session in sessions(of: byNight[date]!) {
                let first = session[0].start
                let end = session.map(\.end).max()!
                let hour = LocalTime.components(first).hour
                if end.milliseconds - first.milliseconds < longestNap && hour >= 12 && hour < 18 { outcome.naps += 1 } else { kept += session }
            }
            guard !kept.isEmpty else { continue }
            switch night(date, from: kept, source: named) {
            case .success(let night?): outcome.nights.append(night)
            case .success(nil): break
            case .failure(let error): outcome.leftOut.append((date, error.problem))
            }
        }
        return outcome
    }

    /// `samples` in runs with less than `sessionGap` between one's latest end and the next start.
    static func sessions(of samples: [SleepSample]) -> [[SleepSample]] {
        let sorted = samples.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        var sessions: [[SleepSample]] = []
        var latestEnd = Timestamp(milliseconds: .min)
        for sample in sorted {
            if sessions.isEmpty || sample.start.milliseconds - latestEnd.milliseconds >= sessionGap {
                sessions.append([sample])
                latestEnd = sample.end
            } else {
                sessions[sessions.count - 1].append(sample)
                latestEnd = max(latestEnd, sample.end)
            }
        }
        return sessions
    }

    /// The stretches `samples` cover, joined where they touch or overlap, in order.
    static func covered(_ samples: [SleepSample]) -> [(start: Timestamp, end: Timestamp)] {
        var stretches: [(start: Timestamp, end: Timestamp)] = []
        for sample in samples.sorted(by: { $0.start < $1.start }) {
            if let last = stretches.last, sample.start <= last.end {
                stretches[stretches.count - 1].end = max(last.end, sample.end)
            } else {
                stretches.append((sample.start, sample.end))
            }
        }
        return stretches
    }

    /// The night of `date` from its samples (naps left out): nil when no source slept in it (or the
    /// one named did not), an error when its figures break the rules.
    static func night(_ date: LocalDate, from samples: [SleepSample], source named: String?) -> Result<Night?, InvalidRecordError> {
        var asleepBySource: [String: Int64] = [:]
        for source in Set(samples.map(\.source)) {
            let asleep = covered(samples.filter { $0.source == source && $0.stage.isAsleep })
            asleepBySource[source] = asleep.reduce(0) { $0 + $1.end.milliseconds - $1.start.milliseconds }
        }
        let chosen: String
        if let named {
            guard (asleepBySource[named] ?? 0) > 0 else {
                return asleepBySource.values.contains { $0 > 0 }
                    ? .failure(InvalidRecordError(problem: "'\(TerminalText.quoted(named))' recorded no sleep that night", kind: .badData))
                    : .success(nil)
            }
            chosen = named
        } else {
            guard let best = asleepBySource.filter({ $0.value > 0 }).min(by: { ($1.value, $0.key) < ($0.value, $1.key) }) else { return .success(nil) }
            chosen = best.key
        }
        let own = samples.filter { $0.source == chosen }
        let sleep = covered(own.filter { $0.stage.isAsleep })
        let asleepAt = sleep[0].start
        let inBed = own.filter { $0.stage == .inBed }.map(\.start).min()
            ?? samples.filter { $0.stage == .inBed }.map(\.start).min()
            ?? asleepAt
        let awake = own.filter { $0.stage == .awake }
        var awakenings = 0
        for (before, after) in zip(sleep, sleep.dropFirst()) {
            let gap = after.start.milliseconds - before.end.milliseconds
            if gap >= awakeningGap || awake.contains(where: { $0.start < after.start && $0.end > before.end }) { awakenings += 1 }
        }
        let night = Night(
            date: date, inBedAt: min(inBed, asleepAt), asleepAt: asleepAt, wokeAt: sleep[sleep.count - 1].end,
            asleepMilliseconds: asleepBySource[chosen] ?? 0, awakenings: awakenings, source: chosen)
        do { try NightRules.check(night) } catch { return .failure(error) }
        return .success(night)
    }
}
