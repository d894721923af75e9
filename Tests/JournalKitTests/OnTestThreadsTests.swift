import Foundation
import Testing
import TestSupport

/// Every suite runs its tests on threads of their own: one suite without, blocking Swift's two
/// cooperative threads, is enough to stall every other test's tasks.
@Suite(.onTestThreads) struct OnTestThreadsTests {
    @Test func everySuiteOfThePackageCarriesTheTrait() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        var suites = 0
        for file in files {
            let text = try String(contentsOfFile: tests.path + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("@Suite") {
                suites += 1
                #expect(line.hasPrefix("@Suite(.onTestThreads"), "\(file): \(line)")
            }
        }
        #expect(suites > 50)
    }

    /// Tests that block a thread each, more of them than there are cores, all go on at once.
    @Test func testsThatBlockDoNotHoldEachOtherUp() async throws {
        let blockers = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        let arrived = Gate(count: blockers)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<blockers {
                // Each blocks its thread until all have arrived: on a pool of one thread a core, they never would.
                group.addTask { #expect(arrived.arriveAndWait(timeout: 30), "a blocked thread held up the others") }
            }
            try await group.waitForAll()
        }
    }
}

/// A count of arrivals that a blocked thread waits on.
private final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: Int

    init(count: Int) { waiting = count }

    func arriveAndWait(timeout seconds: TimeInterval) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        waiting -= 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: seconds)
        while waiting > 0 { if !condition.wait(until: deadline) { return false } }
        return true
    }
}
