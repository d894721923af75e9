import JournalKit
import JournalSync
import Synchronization
import Testing
import TestSupport

@testable import journal_syncd

/// A polled hub's schedule, on a clock the test steps: looks every 5 s while people change things,
/// every 40 s once 10 minutes passed without such a change, whatever housekeeping the looks find.
@Suite(.onTestThreads) struct HubPollingTests {
    /// The looks' answers, in turn, and the signs the polling gave.
    final class Script: Sendable {
        let answers: Mutex<[PolledChange]>
        let looks = Mutex(0)
        let signs = Mutex<[DoorbellSign]>([])
        /// The look (counted from 1) that fails, as a server out of reach.
        let failing: Int?
        init(_ answers: [PolledChange], failing: Int? = nil) {
            self.answers = Mutex(answers)
            self.failing = failing
        }

        func look() throws -> PolledChange {
            let number = looks.withLock { count in
                count += 1
                return count
            }
            if number == failing { throw SyncError.hubUnavailable(hub: "dav://test/hub", reason: "down") }
            return answers.withLock { $0.isEmpty ? .nothing : $0.removeFirst() }
        }
    }

    /// Starts the polling and returns, each time the test lets the clock reach the next look, the
    /// wait that came before it.
    private func run(_ script: Script, clock: ManualClock, looks: Int) async -> [Duration] {
        let polling = HubPolling(poll: HubPoll { try script.look() }, clock: clock)
        let task = Task { try await polling.listen { sign in script.signs.withLock { $0.append(sign) } } }
        var waits: [Duration] = []
        for look in 1...looks {
            await clock.waitForSleepers(1)
            let wake = clock.wakeTimes[0]
            waits.append(wake - clock.now.offset)
            clock.advance(by: wake - clock.now.offset)
            while script.looks.withLock({ $0 }) < look + 1, !Task.isCancelled { await Task.yield() }
        }
        task.cancel()
        _ = await task.result
        return waits
    }

    /// A card refreshed at every look (the devices' housekeeping) was taken for a person's change, and
    /// a WebDAV hub never went quiet: about 17,000 requests a day per machine.
    @Test func housekeepingLeavesAQuietHubQuiet() async {
        let clock = ManualClock()
        let script = Script(Array(repeating: .housekeeping, count: 200))
        let waits = await run(script, clock: clock, looks: 130)
        // 120 looks 5 s apart make the first 10 minutes; every look after is 40 s after the last.
        #expect(waits.prefix(120).allSatisfy { $0 == .seconds(5) }, "\(waits)")
        #expect(waits.dropFirst(120).allSatisfy { $0 == .seconds(40) }, "\(waits)")
        #expect(script.signs.withLock { $0 } == [.listening])
    }

    @Test func anotherDevicesChangeRingsAndMakesTheHubActiveAgain() async {
        let clock = ManualClock()
        let device = DeviceID(rawValue: UUIDText.random())
        // 120 quiet looks, then another device's segment, then this device's own change later on.
        var answers = Array(repeating: PolledChange.nothing, count: 121)
        answers.append(.others(device: device))
        answers += Array(repeating: .nothing, count: 121)
        answers.append(.own)
        let script = Script(answers)
        let waits = await run(script, clock: clock, looks: 250)
        // The ring came at the first quiet look (the 121st, 640 s in).
        #expect(waits[120] == .seconds(40), "\(waits)")
        // After it, 5 s looks for 10 minutes; quiet again; this device's change is activity too.
        #expect(waits[121..<241].allSatisfy { $0 == .seconds(5) }, "\(waits)")
        #expect(waits[241..<243].allSatisfy { $0 == .seconds(40) }, "\(waits)")
        #expect(waits[243...].allSatisfy { $0 == .seconds(5) }, "\(waits)")
        #expect(script.signs.withLock { $0 } == [.listening, .rang(device: device)])
    }

    /// A look that fails ends the listening (the doorbell tries again); the looks after it go on where
    /// the schedule was: a server that fails now and then does not make a quiet hub active.
    @Test func aFailedLookDoesNotMakeAQuietHubActive() async throws {
        let clock = ManualClock()
        let script = Script([], failing: 123)
        let polling = HubPolling(poll: HubPoll { try script.look() }, clock: clock)
        let first = Task { try await polling.listen { _ in } }
        // 121 looks bring the hub to its quiet time (600 s), the 122nd is 40 s later, the 123rd fails.
        for _ in 0..<122 {
            await clock.waitForSleepers(1)
            clock.advance(by: clock.wakeTimes[0] - clock.now.offset)
        }
        await #expect(throws: SyncError.self) { try await first.value }
        let again = Task { try await polling.listen { _ in } }
        await clock.waitForSleepers(1)
        #expect(clock.wakeTimes[0] - clock.now.offset == .seconds(40))
        again.cancel()
        _ = await again.result
    }

    @Test func findingsMergeStrongestFirst() {
        let one = DeviceID(rawValue: UUIDText.random()), two = DeviceID(rawValue: UUIDText.random())
        #expect(PolledChange.housekeeping.merged(with: .others(device: one)) == .others(device: one))
        #expect(PolledChange.others(device: one).merged(with: .others(device: two)) == .others(device: nil))
        #expect(PolledChange.others(device: one).merged(with: .others(device: one)) == .others(device: one))
        #expect(PolledChange.own.merged(with: .housekeeping) == .own)
        #expect(PolledChange.nothing.merged(with: .housekeeping) == .housekeeping)
        #expect(!PolledChange.housekeeping.isActivity && PolledChange.own.isActivity)
    }
}
