/// The nights in a tracker's samples, by the rules `journal import` documents:
///
/// - Samples of every source that follow each other with less than an hour between them make a
///   session. A session under 3 hours that starts between noon and 18:00 is a nap, and left out.
/// - A session belongs to the night of its first sample: the evening of that day, or of the day before
///   when it starts between midnight and noon (`NightDate`); the sessions of one night are one night.
/// - A night is counted once, from one source: the one named (case aside), else the one with the most
///   time asleep (the first by name on a tie). Sources are never summed.
/// - Lights-out is the start of that source's first in-bed sample; where it has none, the earliest
///   in-bed sample of another source that night; else its first sample of sleep. It is never later
///   than that first sample of sleep.
/// - Asleep in all is the time covered by its samples of sleep (any stage); an awakening is a gap
///   between two of them of 5 minutes or more, or a shorter one an awake sample of it falls in.
/// - A night that ends more than 5 minutes after now (`EntryRules`) has not happened, and is left out.
///
/// Each step sorts or groups once: a file of a million samples of a million sources, all one night,
/// takes seconds, not the hours comparing every sample with every other would.
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
        /// Nights whose samples make no night to count: no sleep from the source named, figures the
        /// rules refuse, or an end still to come.
        public var leftOut: [(date: LocalDate, reason: String)] = []
        /// Sessions left out as naps.
        public var naps = 0

        public static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            lhs.nights == rhs.nights && lhs.naps == rhs.naps && lhs.leftOut.map(\.date) == rhs.leftOut.map(\.date)
                && lhs.leftOut.map(\.reason) == rhs.leftOut.map(\.reason)
        }
    }

    /// The nights of `samples` that have ended by `now`, each from `source` when given.
    public static func nights(in samples: [SleepSample], source named: String? = nil, now: Timestamp) -> Outcome {
        var outcome = Outcome()
        var byNight: [LocalDate: [SleepSample]] = [:]
        for session in sessions(of: samples.filter { $0.end > $0.start }) {
            let first = session[0].start
            let end = session.map(\.end).max()!
            let hour = LocalTime.components(first).hour
            if end.milliseconds - first.milliseconds < longestNap && hour >= 12 && hour < 18 {
                outcome.naps += 1
            } else {
                byNight[NightDate.of(lightsOut: first), default: []] += session
            }
        }
        for date in byNight.keys.sorted() {
            switch night(date, from: byNight[date]!, source: named) {
            case .success(let night?):
                if EntryRules.allows(night.wokeAt, now: now) {
                    outcome.nights.append(night)
                } else {
                    outcome.leftOut.append((date, "it ends in the future, at \(LocalTime.iso8601(night.wokeAt))"))
                }
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
        var bySource: [String: [SleepSample]] = [:]
        for sample in samples { bySource[sample.source, default: []].append(sample) }
        var asleepBySource: [String: Int64] = [:]
        for (source, own) in bySource {
            asleepBySource[source] = covered(own.filter { $0.stage.isAsleep }).reduce(0) { $0 + $1.end.milliseconds - $1.start.milliseconds }
        }
        let chosen: String
        if let named {
            let wanted = named.lowercased()
            guard let match = asleepBySource.filter({ $0.key.lowercased() == wanted && $0.value > 0 }).map(\.key).min() else {
                return asleepBySource.values.contains { $0 > 0 }
                    ? .failure(InvalidRecordError(problem: "'\(TerminalText.quoted(named))' recorded no sleep that night", kind: .badData))
                    : .success(nil)
            }
            chosen = match
        } else {
            guard let best = asleepBySource.filter({ $0.value > 0 }).min(by: { ($1.value, $0.key) < ($0.value, $1.key) }) else { return .success(nil) }
            chosen = best.key
        }
        let own = bySource[chosen] ?? []
        let sleep = covered(own.filter { $0.stage.isAsleep })
        let asleepAt = sleep[0].start
        let inBed = own.filter { $0.stage == .inBed }.map(\.start).min()
            ?? samples.filter { $0.stage == .inBed }.map(\.start).min()
            ?? asleepAt
        // An awake sample falls in the gap (e, s) when it starts before s and ends after e: among the
        // awake samples starting before s, the latest end says whether one does.
        let awake = own.filter { $0.stage == .awake }.sorted { $0.start < $1.start }
        var latestEnd: [Timestamp] = []
        for sample in awake { latestEnd.append(max(latestEnd.last ?? sample.end, sample.end)) }
        func awakeSample(between end: Timestamp, and start: Timestamp) -> Bool {
            var (low, high) = (0, awake.count)
            while low < high {
                let middle = (low + high) / 2
                if awake[middle].start < start { low = middle + 1 } else { high = middle }
            }
            return low > 0 && latestEnd[low - 1] > end
        }
        var awakenings = 0
        for (before, after) in zip(sleep, sleep.dropFirst()) {
            let gap = after.start.milliseconds - before.end.milliseconds
            if gap >= awakeningGap || awakeSample(between: before.end, and: after.start) { awakenings += 1 }
        }
        let night = Night(
            date: date, inBedAt: min(inBed, asleepAt), asleepAt: asleepAt, wokeAt: sleep[sleep.count - 1].end,
            asleepMilliseconds: asleepBySource[chosen] ?? 0, awakenings: awakenings, source: chosen)
        do { try NightRules.check(night) } catch { return .failure(error) }
        return .success(night)
    }
}
