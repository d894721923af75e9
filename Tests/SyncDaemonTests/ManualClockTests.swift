import Testing
import TestSupport

/// The tests' clock behaves as a real one where the daemon's loops rely on it.
@Suite(.onTestThreads) struct ManualClockTests {
    /// A sleep begun after its task was cancelled throws, as `ContinuousClock`'s does: one that
    /// returned let HubPolling's loop look without end once cancelled between two sleeps, and hung a
    /// whole test run.
    @Test func aSleepOfACancelledTaskThrows() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(5))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeping == 0)
    }
}
