import Testing
import TestSupport

@testable import journal_syncd

/// A log line that comes back again and again is said once, then once per interval with its count.
@Suite(.onTestThreads) struct RepeatedLineTests {
    @Test func aRepeatedLineIsSaidOnceThenOncePerIntervalWithItsCount() {
        var line = RepeatedLine(interval: .seconds(3600))
        let start = ContinuousClock.now
        #expect(line.line("lost", now: start) == "lost")
        for second in 1...179 { #expect(line.line("lost", now: start + .seconds(20 * second)) == nil) }
        #expect(line.line("lost", now: start + .seconds(3600)) == "lost (it came 179 more times since it was last logged)")
        // Another cause is news at once, and the first one after it too.
        #expect(line.line("refused", now: start + .seconds(3601)) == "refused")
        #expect(line.line("lost", now: start + .seconds(3602)) == "lost")
    }
}
