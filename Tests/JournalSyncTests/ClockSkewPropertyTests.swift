import Foundation
import JournalKit
import PropertyBased
import Synchronization
import Testing
import TestSupport

@testable import JournalSync

/// Machines whose clocks are off by minutes or by years, or were wrong once: any history of writes and
/// deliveries converges, and once every clock is right, of the edits made to a drink after that, the
/// one made last in real time wins on every machine, whatever a machine's clock said before. Edits
/// further apart than a clock may run ahead (`HybridLogicalClock.maximumDrift`): within that, a
/// reading from a clock running ahead may order two edits against real time, as hybrid clocks do.
@Suite(.onTestThreads) struct ClockSkewPropertyTests {
    /// Real time, which every machine's clock follows at its own offset; it moves a second a step.
    final class RealTime: Sendable {
        private let milliseconds = Mutex<Int64>(1_795_262_400_000)
        var now: Int64 { milliseconds.withLock { $0 } }
        func advance(by step: Int64 = 1_000) { milliseconds.withLock { $0 += step } }
    }

    /// A machine's clock: real time and the offset its history gives it.
    final class MachineClock: JournalClock, Sendable {
        let real: RealTime
        private let offset = Mutex<Int64>(0)

        init(real: RealTime) { self.real = real }
        func set(offset milliseconds: Int64) { offset.withLock { $0 = milliseconds } }
        func now() -> Timestamp { Timestamp(milliseconds: real.now + offset.withLock { $0 }) }
    }

    /// Offsets a history sets a machine's clock to: right, two minutes ahead or one behind (within what a clock
    /// may run ahead), ten minutes ahead, and three years ahead.
    static let offsets: [Int64] = [0, 120_000, -60_000, 600_000, 3 * 365 * 86_400_000]

    /// A write (0-6, 10-12: `ConvergenceTests.write`), a delivery (7-9), or a machine's clock set (13-15).
    static let history = zip(Gen.int(in: 0...15), Gen.int(in: 0...2), Gen.int(in: 0...40), Gen.int(in: 0...2))
        .map { Step(action: $0, replica: $1, pick: $2, other: $3) }
        .array(of: 1...40)

    @Test func clocksOffByMinutesOrYearsConvergeAndLaterEditsWinOnceRight() async throws {
        await checkProperty(count: 40, input: Self.history) { history in try await Self.play(history) }
    }

    /// Histories the property once failed on, or that show what it is about.
    @Test(arguments: [
        // Machine 0's clock reads three years ahead while it writes, then is right again.
        [(15, 0, 4, 0), (0, 0, 0, 0), (13, 0, 0, 0), (7, 1, 0, 0)],
    ])
    func aHistoryOnceFoundHolds(_ history: [(Int, Int, Int, Int)]) async throws {
        try await Self.play(history.map { Step(action: $0.0, replica: $0.1, pick: $0.2, other: $0.3) })
    }

    static func play(_ history: [Step]) async throws {
        try await withTemporaryDirectory { folder in
            let real = RealTime()
            var clocks: [MachineClock] = []
            var replicas: [JournalStore] = []
            for index in 0..<3 {
                let clock = MachineClock(real: real)
                clocks.append(clock)
                replicas.append(try await JournalStore(path: "\(folder)/\(index).db", clock: clock, physicalClock: clock))
            }
            for step in history {
                real.advance()
                switch step.action {
                case 7...9: try await ConvergenceTests.deliver(from: replicas[step.other], to: replicas[step.replica], shuffle: step.pick)
                case 13...15: clocks[step.replica].set(offset: offsets[step.pick % offsets.count])
                default: try await ConvergenceTests.write(step, on: replicas[step.replica])
                }
            }
            // Every clock right; a drink added and seen by all; then each machine changes it in turn,
            // later in real time each, before hearing of the others' changes.
            for clock in clocks { clock.set(offset: 0) }
            real.advance()
            let drink = try await replicas[0].add(drink(note: "after the clocks were set right"))
            try await deliverAll(replicas, rounds: 1)
            for (index, replica) in replicas.enumerated() {
                real.advance(by: HybridLogicalClock.maximumDrift.components.seconds * 1_000 + 60_000)
                _ = try await replica.edit(drink.id, DrinkEdit(note: "changed by \(index)"))
            }
            try await deliverAll(replicas, rounds: 2)
            var states: [Set<RecordState>] = []
            for replica in replicas {
                states.append(Set(try await replica.changes(since: nil, limit: 10_000).records.map(RecordState.init)))
                #expect(try await replica.drinks().first { $0.id == drink.id }?.note == "changed by 2", "history \(history)")
            }
            #expect(states[0] == states[1] && states[1] == states[2], "history \(history)")
        }
    }

    /// Every replica's changes to every other, `rounds` times over.
    static func deliverAll(_ replicas: [JournalStore], rounds: Int) async throws {
        for round in 0..<rounds {
            for (from, to) in [(0, 1), (2, 0), (1, 2), (1, 0), (0, 2), (2, 1)] {
                try await ConvergenceTests.deliver(from: replicas[from], to: replicas[to], shuffle: round * 7 + from)
            }
        }
    }
}
