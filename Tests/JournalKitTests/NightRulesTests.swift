import Foundation
import Testing
import TestSupport

@testable import JournalKit

/// A night from a peer (a member with bad intent, or a revoked machine that kept its keys and writes
/// what it likes) is held to the same rule as an import: one that breaks it is refused on reading.
@Suite(.onTestThreads) struct NightRulesTests {
    static let origin = "0f0e0d0c-0b0a-4908-8706-050403020100"
    static let clock = String(1_795_262_400_000 << 16)

    /// `[night, in_bed_at, asleep_at, woke_at, asleep_ms, awakenings, source]` and the record's tail.
    func decode(_ fields: String) throws -> Replicated<Night> {
        try JSONDecoder().decode(Replicated<Night>.self, from: Data("[\(fields), 0, \"\(Self.clock)\", \"\(Self.origin)\"]".utf8))
    }

    // 2026-11-01T22:00Z, 22:20, 06:20; noon of 2026-11-01 is 1_793_534_400_000.
    static let good = "\"2026-11-01\", 1793570400000, 1793571600000, 1793600400000, 25200000, 2"

    @Test func aWellFormedNightReads() throws {
        let night = try decode(Self.good + ", \"Apple Watch\"").payload
        #expect(night.latencyMinutes == 20 && night.asleepMinutes == 420 && night.awakenings == 2)
    }

    @Test(arguments: [
        (good + ", \"\\u001b]0;owned\\u0007\"", "its source must be 1 to 100 characters, none of them a control"),
        (good + ", \"\"", "its source must be"),
        (good + ", \"" + String(repeating: "w", count: 101) + "\"", "its source must be"),
        ("\"2026-02-30\", 1793570400000, 1793571600000, 1793600400000, 25200000, 2, \"w\"", "is not a night's date"),
        ("\"2026-11-01\", 1793571600000, 1793570400000, 1793600400000, 25200000, 2, \"w\"", "in that order"),
        ("\"2026-11-01\", 1793570400000, 1793571600000, 1793700400000, 25200000, 2, \"w\"", "more than 24 hours"),
        ("\"2026-11-01\", 1793570400000, 1793571600000, 1793600400000, 99999999, 2, \"w\"", "does not fit"),
        ("\"2026-11-01\", 1793570400000, 1793571600000, 1793600400000, 25200000, -1, \"w\"", "awakenings"),
        ("\"2026-11-05\", 1793570400000, 1793571600000, 1793600400000, 25200000, 2, \"w\"", "not on that evening"),
        // A night still to come, as the record's own clock reads: no later than a person could enter it.
        ("\"2027-11-01\", 1825106400000, 1825107600000, 1825136400000, 25200000, 2, \"w\"", "more than 5 minutes after it was written"),
    ])
    func aNightBreakingTheRuleIsRefused(fields: String, problem: String) {
        #expect {
            _ = try decode(fields)
        } throws: { error in
            "\(error)".contains(problem)
        }
    }
}
