import Foundation
import HubTestSupport
import JournalKit
import JournalSync
import ServiceLifecycleTestKit
import Synchronization
import Testing
import TestSupport

@testable import journal_syncd

/// The daemon lets go of its code pages once it has been quiet a while after starting or syncing, so
/// an idle daemon holds only what idling needs, and a burst of syncs brings the code back once: the
/// service on the test's clock, over a real journal and folder hub.
@Suite(.onTestThreads, .serialized) struct QuietReleaseTests {
    final class Releases: Sendable {
        let count = Atomic(0)
    }

    /// The service over a folder hub with one drink, on the test's clock, its code-page releases
    /// counted: `body` runs once it is READY and its start-up sync's quiet alarm is set.
    /// No rings: the syncs are the start-up's and the test's requests, and nothing else moves the alarm
    /// (the journal's own writes wake the loop, but sync nothing).
    func withQuietService(
        _ body: (SyncService<ManualClock>, NotifySocket, ManualClock, Releases) async throws -> Void
    ) async throws {
        try await withTemporaryDirectory { folder in
            let (reader, folderHub, key) = try await SyncServiceTests.publishedHub(folder, count: 1)
            let hub = SilentHub(base: folderHub)
            let socket = try NotifySocket(path: folder + "/notify.sock")
            let clock = ManualClock()
            let releases = Releases()
            try await testGracefulShutdown { trigger in
                var service = SyncServiceTests.service(reader, notifySocket: socket.path, watchdog: nil, hub: hub, key: key, clock: clock)
                service.releaseCodePages = { releases.count.add(1, ordering: .relaxed) }
                let running = Task(executorPreference: SerialThreadExecutor()) { try await service.run() }
                defer { trigger.triggerGracefulShutdown() }
                #expect(socket.receive(until: { $0 == "READY=1" }, timeout: .seconds(30)) != nil)
                #expect(await waitFor { clock.wakeTimes.contains(LoopPolicy.quietAfter) })
                #expect(try await reader.drinks().count == 1)
                try await body(service, socket, clock, releases)
                trigger.triggerGracefulShutdown()
                try await running.value
            }
        }
    }

    @Test func theCodePagesGoOnceTheDaemonIsQuietAfterEachSync() async throws {
        try await withQuietService { service, _, clock, releases in
            // The start-up sync done, its quiet alarm set.
            let quiet = LoopPolicy.quietAfter
            clock.advance(by: quiet - .seconds(1))
            #expect(releases.count.load(ordering: .relaxed) == 0, "let go before the daemon was quiet")
            clock.advance(by: .seconds(1))
            // Quiet: the pages go.
            #expect(await waitFor { releases.count.load(ordering: .relaxed) == 1 })
            // A sync sets the alarm again, from its end.
            service.events.send(.request)
            #expect(await waitFor { clock.wakeTimes.contains(quiet * 2) }, "\(clock.wakeTimes)")
            #expect(releases.count.load(ordering: .relaxed) == 1)
            clock.advance(by: quiet)
            #expect(await waitFor { releases.count.load(ordering: .relaxed) == 2 })
        }
    }

    @Test func aSyncWhileQuietPutsTheReleaseOffUntilTenSecondsAfterIt() async throws {
        try await withQuietService { service, socket, clock, releases in
            let quiet = LoopPolicy.quietAfter
            // A sync halfway: the pages are to go 10 s after it.
            clock.advance(by: quiet / 2)
            while socket.receive(timeout: .zero) != nil {}
            service.events.send(.request)
            #expect(socket.receive(until: { $0.hasPrefix("STATUS=Last sync") }, timeout: .seconds(30)) != nil)
            // The first alarm comes early: nothing goes, and the pages go at the later time.
            clock.advance(by: quiet / 2)
            #expect(await waitFor { clock.wakeTimes.contains(quiet + quiet / 2) }, "\(clock.wakeTimes)")
            #expect(releases.count.load(ordering: .relaxed) == 0)
            clock.advance(by: quiet / 2)
            #expect(await waitFor { releases.count.load(ordering: .relaxed) == 1 })
        }
    }

    /// True once `condition` holds, false if it does not within a minute: the loop acts on its own thread.
    func waitFor(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}

/// A folder hub whose changes ring no one: the daemon watches no folder of it.
final class SilentHub: ForwardingHub, @unchecked Sendable {
    let base: any Hub
    init(base: any Hub) { self.base = base }
    func changes(ownDevice: DeviceID, clock: any JournalClock) -> HubChanges { .files(folders: { [] }) }
}
