import JournalKit

/// How much of the hub one sync reads: the plan of a wake, decided before any I/O.
public enum SyncScope: Sendable, Equatable {
    /// Everything: cards, key epochs, this device's own log, publishing, every other device's log.
    case whole
    /// Only these devices' logs, past what this journal applied of them: what a ring that named them
    /// needs. A name is a hint, not a fact: a log with nothing new costs one listing, and anything a
    /// log-only read cannot settle (a segment that does not open, a device without a card here) makes
    /// the same sync go on as a whole one.
    case logs(Set<DeviceID>)
}

/// What the rings of one wake named: the logs another device published to, and whether anything rang
/// that names no log (a key epoch, a card, a doorbell that listens again and cannot know what it
/// missed). Rings merge as the daemon's wake reasons do.
public struct RangLogs: Sendable, Equatable {
    public private(set) var devices: Set<DeviceID> = []
    /// Something rang that only a whole sync reads.
    public private(set) var unnamed = false

    public init() {}

    /// A ring that names `device`'s log.
    public static func log(_ device: DeviceID) -> RangLogs {
        var rang = RangLogs()
        rang.devices = [device]
        return rang
    }

    /// A ring that names no log.
    public static let unnamedRing: RangLogs = {
        var rang = RangLogs()
        rang.unnamed = true
        return rang
    }()

    public mutating func formUnion(_ other: RangLogs) {
        devices.formUnion(other.devices)
        unnamed = unnamed || other.unnamed
    }

    /// True when no ring came.
    public var isEmpty: Bool { devices.isEmpty && !unnamed }

    /// The scope of a sync woken by these rings alone: their logs, or everything when one named none.
    public var scope: SyncScope { unnamed || devices.isEmpty ? .whole : .logs(devices) }
}
