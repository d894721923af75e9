import JournalKit

/// How a hub that cannot push is watched: the daemon looks at it on a schedule, on the service's
/// clock. The hub says what one look found; the daemon owns the waiting, so that every wait is on
/// the clock the service gives it (tests step it), and the schedule is one value for every polled kind.
public struct HubPoll: Sendable {
    /// One look at the hub: what changed since the look before. The first look only takes the hub's
    /// measure (the sync the daemon starts with covers what came before it).
    public let look: @Sendable () async throws -> PolledChange
    public let schedule: PollSchedule

    public init(schedule: PollSchedule = PollSchedule(), look: @escaping @Sendable () async throws -> PolledChange) {
        self.schedule = schedule
        self.look = look
    }
}

/// What one look at a polled hub found, strongest first where a look finds several.
public enum PolledChange: Sendable, Equatable {
    /// Another device changed the hub: `device`'s log when one alone changed (a hint: what is read is
    /// verified as ever), nil otherwise (a key epoch, several logs, a name no journal writes).
    case others(device: DeviceID?)
    /// This device's own log changed (a person's change here): the hub is active, nothing to ring.
    case own
    /// What devices do on their own: a card's refresh, a claim made or cleared. Not a person's change:
    /// the hub stays quiet, and the next sync reads it.
    case housekeeping
    case nothing

    /// The stronger of two findings: another device's change over this device's, over housekeeping.
    public func merged(with other: PolledChange) -> PolledChange {
        switch (self, other) {
        case (.others(let one), .others(let two)): return .others(device: one == two ? one : nil)
        case (.others, _): return self
        case (_, .others): return other
        case (.own, _), (_, .own): return .own
        case (.housekeeping, _), (_, .housekeeping): return .housekeeping
        case (.nothing, .nothing): return .nothing
        }
    }

    /// True for a person's change, here or elsewhere: it keeps the hub active.
    public var isActivity: Bool {
        switch self {
        case .others, .own: true
        case .housekeeping, .nothing: false
        }
    }
}

/// When a polled hub is looked at: often while people change things, seldom once they stopped. A
/// quiet hub costs `quietRequestsPerMinute`; a change is seen within `active` while the hub is active.
public struct PollSchedule: Sendable, Equatable {
    /// The wait between looks within `quietAfter` of the last person's change.
    public var active: Duration = .seconds(5)
    /// The wait between looks after that: 40 s is 1.5 looks a minute, under the 2 a minute a quiet
    /// hub may cost, with room for the daemon's housekeeping sync (`LoopPolicy.polledHousekeeping`).
    public var quiet: Duration = .seconds(40)
    /// How long after the last person's change the hub counts as quiet.
    public var quietAfter: Duration = .seconds(600)

    public init() {}

    public init(active: Duration, quiet: Duration, quietAfter: Duration) {
        self.active = active
        self.quiet = quiet
        self.quietAfter = quietAfter
    }

    /// The schedule as `sync status` says it: "every 5 s within 10 min of a change, every 40 s when quiet".
    public var spoken: String {
        "every \(active.components.seconds) s within \(quietAfter.components.seconds / 60) min of a change, every \(quiet.components.seconds) s when quiet"
    }

    /// The wait before the next look, `sinceChange` after the last person's change (or the start).
    public func wait(sinceChange: Duration) -> Duration {
        sinceChange >= quietAfter ? quiet : active
    }
}
