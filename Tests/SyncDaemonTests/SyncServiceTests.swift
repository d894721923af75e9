import Foundation
import JournalKit
import FolderHub
import HubTestSupport
import JournalSync
import Logging
import ServiceLifecycleTestKit
import Testing
import TestSupport

@testable import journal_syncd

/// The daemon's service and loop in this process, over real journals and a real folder hub, with a
/// notification socket of the test's own: shutdown, and the watchdog during long syncs.
@Suite(.onTestThreads, .serialized) struct SyncServiceTests {
    /// A journal with `count` drinks published one per segment to a hub in `folder`, and a second
    /// journal joined to that hub that has not synced yet.
    static func publishedHub(_ folder: String, count: Int) async throws -> (reader: JournalStore, hub: FolderHub, key: SyncKey) {
        let key = SyncKey()
        try FileManager.default.createDirectory(atPath: folder + "/hub", withIntermediateDirectories: true)
        let hub = try FolderHub.create(folder: folder + "/hub", key: key)
        let writer = try await JournalStore(path: folder + "/writer.db")
        try await writer.joinHub(id: hub.id, kind: "folder", location: hub.location)
        for minute in 0..<count {
            _ = try await writer.add(NewDrink(kind: "espresso", caffeineMg: 64, consumedAt: Timestamp(milliseconds: 1_795_200_000_000 + Int64(minute) * 60_000)))
        }
        _ = try await SyncEngine(store: writer, hub: hub, key: key, deviceKeys: DeviceKeys(), segmentSize: 1).sync()
        let reader = try await JournalStore(path: folder + "/reader.db")
        try await reader.joinHub(id: hub.id, kind: "folder", location: hub.location)
        return (reader, hub, key)
    }

    /// The service over `hub`, every wait of it on `clock`, which only the test moves.
    static func service(
        _ store: JournalStore, notifySocket: String, watchdog: Duration?, hub: any Hub, key: SyncKey, clock: ManualClock
    ) -> SyncService<ManualClock> {
        var service = SyncService(
            store: store, interval: .seconds(3600), watchdogInterval: watchdog,
            notifier: SystemdNotifier(environment: { $0 == "NOTIFY_SOCKET" ? notifySocket : nil }),
            logger: Logger(label: "test"), executor: SerialThreadExecutor(), clock: clock, watchdogClock: clock)
        service.makeEngine = { SyncEngine(store: $0, hub: hub, key: key, deviceKeys: DeviceKeys(), segmentSize: 1) }
        return service
    }

    @Test func gracefulShutdownStopsTheServiceAfterTheSegmentInFlight() async throws {
        try await withTemporaryDirectory { folder in
            let (reader, hub, key) = try await Self.publishedHub(folder, count: 20)
            let socket = try NotifySocket(path: folder + "/notify.sock")
            let clock = ManualClock()
            // The periodic sync's ticker sleeps on the clock all along.
            let slow = SlowHub(base: hub, clock: clock, delay: .milliseconds(100), sleepers: 1, holdAfter: 3)
            defer { slow.release() }
            try await testGracefulShutdown { trigger in
                let service = Self.service(reader, notifySocket: socket.path, watchdog: nil, hub: slow, key: key, clock: clock)
                // On a thread of its own, as the daemon runs it: this test blocks a thread of Swift's
                // small pool while it reads the socket, and other tests block the rest waiting for processes.
                let running = Task(executorPreference: SerialThreadExecutor()) { try await service.run() }
                #expect(socket.receive(until: { $0 == "READY=1" }, timeout: .seconds(10)) != nil)
                // Shut down in the middle of the first sync: 20 segments, held after the third.
                let deadline = ContinuousClock.now + .seconds(60)
                while slow.reads < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
                #expect(slow.reads == 3, "the sync did not start")
                trigger.triggerGracefulShutdown()
                slow.release()
                try await running.value
                #expect(socket.receive(until: { $0 == "STOPPING=1" }, timeout: .seconds(30)) != nil)
            }
            // It stopped after the segment in flight, not at the end of the sync; whole segments only,
            // each with its anchor: what was applied is exactly what the anchor says.
            let anchor = try await reader.anchors(hubID: hub.id).values.first ?? 0
            #expect(anchor >= 3 && anchor < 20, "\(anchor) of 20 segments applied")
            #expect(try await reader.drinks().count == anchor)
        }
    }

    @Test func aLongSyncThatMovesFeedsTheWatchdogAndAStuckOneDoesNot() async throws {
        try await withTemporaryDirectory { folder in
            let (reader, hub, key) = try await Self.publishedHub(folder, count: 12)
            let socket = try NotifySocket(path: folder + "/notify.sock")
            // Each segment takes 150 ms of the test's clock; the watchdog wants a ping every 50 ms. The
            // first read is held until the test lets it go: a sync stuck for as long as the test says.
            // Three tasks sleep on the clock while the sync runs: the periodic sync's ticker, the
            // watchdog's, and the sync's watchdog feeder; each time all three are asleep again, the
            // feeder has looked at the sync's progress.
            let clock = ManualClock()
            let slow = SlowHub(base: hub, clock: clock, delay: .milliseconds(150), sleepers: 3, holdAfter: 0)
            defer { slow.release() }
            try await testGracefulShutdown { trigger in
                let service = Self.service(reader, notifySocket: socket.path, watchdog: .milliseconds(50), hub: slow, key: key, clock: clock)
                let running = Task(executorPreference: SerialThreadExecutor()) { try await service.run() }
                defer { trigger.triggerGracefulShutdown() }
                #expect(socket.receive(until: { $0 == "READY=1" }, timeout: .seconds(30)) != nil)
                let deadline = ContinuousClock.now + .seconds(60)
                while !slow.held, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
                #expect(slow.held, "the sync never reached the hub")
                // What was said before the sync got stuck.
                while socket.receive(timeout: .zero) != nil {}
                // Twenty watchdog intervals stuck: ticks come to the loop, none is answered. One ping
                // may still come for progress made just before the hub hung.
                for _ in 0..<20 {
                    await clock.waitForSleepers(3)
                    clock.advance(by: .milliseconds(50))
                }
                await clock.waitForSleepers(3)
                var stuckPings = 0
                while let message = socket.receive(timeout: .zero) {
                    if message == "WATCHDOG=1" { stuckPings += 1 }
                }
                #expect(stuckPings <= 1, "\(stuckPings) pings while the sync was stuck")
                slow.release()
                // Once segments flow, pings flow: about one per segment (150 ms), however busy the machine.
                var pings = 0
                let end = ContinuousClock.now + .seconds(60)
                while ContinuousClock.now < end, let message = socket.receive(timeout: end - ContinuousClock.now) {
                    if message == "WATCHDOG=1" { pings += 1 }
                    // The loop says how the sync went once it is over.
                    if message.hasPrefix("STATUS=Last sync") { break }
                }
                trigger.triggerGracefulShutdown()
                try await running.value
                #expect(pings >= 5, "\(pings) pings while 12 segments moved")
                #expect(try await reader.drinks().count == 12)
            }
        }
    }
}

/// A folder hub behind a slow network: each segment read takes `delay`. Reads after the first
/// `holdAfter` wait until `release()`: a sync stuck, at its start or in its middle, for as long as the
/// test needs.
final class SlowHub: ForwardingHub, @unchecked Sendable {
    let base: any Hub
    let delay: Duration
    let holdAfter: Int?
    private let lock = NSLock()
    private var readCount = 0
    private let gate = NSCondition()
    private var released = false
    private var waiting = 0

    let clock: ManualClock
    /// How many tasks sleep on `clock` between reads.
    let sleepers: Int

    init(base: any Hub, clock: ManualClock, delay: Duration, sleepers: Int, holdAfter: Int? = nil) {
        self.base = base
        self.clock = clock
        self.delay = delay
        self.sleepers = sleepers
        self.holdAfter = holdAfter
    }

    /// Lets held reads, and all later ones, go on.
    func release() {
        gate.withLock {
            released = true
            gate.broadcast()
        }
    }

    var reads: Int { lock.withLock { readCount } }
    /// True while a read waits for `release()`.
    var held: Bool { gate.withLock { waiting > 0 } }

    func read(_ segment: SegmentName, of device: DeviceID) async throws -> [UInt8] {
        if let holdAfter, lock.withLock({ readCount }) >= holdAfter {
            gate.withLock {
                waiting += 1
                while !released { gate.wait() }
                waiting -= 1
            }
        }
        // The read takes `delay` of the test's clock; it returns once what that woke is asleep again.
        clock.waitForSleepersBlocking(sleepers)
        clock.advance(by: delay)
        clock.waitForSleepersBlocking(sleepers)
        lock.withLock { readCount += 1 }
        return try await base.read(segment, of: device)
    }
}
