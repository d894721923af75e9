import JournalSync
import Logging
import Synchronization
import Testing
import TestSupport

@testable import journal_syncd

/// The doorbell's log, over a scripted server: the connection lost, then refused again and again
/// (pg_hba.conf shut to the role), then listening again.
@Suite(.onTestThreads) struct ServerDoorbellTests {
    /// A server that refuses: its cause is said once, then its repeats are not.
    struct Refusal: Error, CustomStringConvertible {
        var description: String { "pg_hba.conf rejects connection" }
    }

    /// The doorbell's return is said however many of the failures before it went unsaid as repeats:
    /// after the second refusal, the log said nothing more, and nothing when it listened again.
    @Test(arguments: [1, 2, 5])
    func listeningAgainIsSaidAfterAnyNumberOfRefusals(_ refusals: Int) async throws {
        let log = LogRecord()
        let clock = ManualClock()
        let attempts = Mutex(0)
        let doorbell = ServerDoorbell(
            listen: { sign in
                let attempt = attempts.withLock { count in
                    count += 1
                    return count
                }
                switch attempt {
                case 1:
                    sign(.listening)
                    throw SyncError.hubUnavailable(hub: "postgresql://hub", reason: "the connection was lost")
                case 2...(refusals + 1):
                    throw Refusal()
                default:
                    sign(.listening)
                    try await Task.sleep(for: .seconds(3600))
                }
            },
            logger: Logger(label: "doorbell") { _ in log },
            clock: clock)
        let events = ChangeEvents()
        let feeding = Task { await doorbell.feed(events) }
        defer { feeding.cancel() }
        for _ in 0...refusals {
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(3600))
        }
        #expect(await log.eventually { $0.contains { $0.contains("listening to the hub again") } }, "\(log.lines)")
        let lines = log.lines
        #expect(lines.filter { $0.contains("not listening to the hub") }.count == min(refusals, 1) + 1, "\(lines)")
    }
}

/// Log lines kept in memory.
final class LogRecord: LogHandler, Sendable {
    private let recorded = Mutex<[String]>([])
    var lines: [String] { recorded.withLock { $0 } }

    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        recorded.withLock { $0.append("\(event.level) \(event.message)") }
    }

    /// True once `condition` holds of the lines, within 10 s.
    func eventually(_ condition: ([String]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if condition(lines) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(lines)
    }
}
