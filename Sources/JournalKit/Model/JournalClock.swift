import Glibc

/// Where "now" comes from. Injected so tests never depend on the machine's clock.
public protocol JournalClock: Sendable {
    func now() -> Timestamp
}

/// The machine's real-time clock.
public struct SystemClock: JournalClock {
    public init() {}

    public func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(milliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }
}

/// A clock that always answers the same instant.
public struct FixedClock: JournalClock {
    public let instant: Timestamp
    public init(_ instant: Timestamp) { self.instant = instant }
    public func now() -> Timestamp { instant }
}
