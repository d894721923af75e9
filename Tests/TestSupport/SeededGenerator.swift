import Foundation

/// A small seeded random generator (SplitMix64): the same seed gives the same numbers, so a test that
/// failed at random moments can be replayed with the seed it printed.
public struct SeededGenerator: RandomNumberGenerator {
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// Seeded from `JOURNAL_TEST_SEED` when set (to replay a failure), else at random.
    public static func fromEnvironment() -> SeededGenerator {
        let given = ProcessInfo.processInfo.environment["JOURNAL_TEST_SEED"].flatMap { UInt64($0) }
        return SeededGenerator(seed: given ?? UInt64.random(in: 0...UInt64.max))
    }

    /// How to run the test again with the same numbers.
    public var replay: String { "replay with JOURNAL_TEST_SEED=\(seed)" }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
