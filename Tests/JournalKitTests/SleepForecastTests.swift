import Foundation
import Testing
import TestSupport

@testable import JournalKit

@Suite(.onTestThreads) struct SleepForecastTests {
    let now = Timestamp(milliseconds: 1_795_262_400_000)

    func ceilMinute(_ milliseconds: Double) -> Timestamp {
        Timestamp(milliseconds: (Int64(milliseconds.rounded(.up)) + 1 + 59_999) / 60_000 * 60_000)
    }

    @Test func oneDrinkDecaysToTheThresholdInWholeHalfLives() {
        let model = CaffeineModel()
        let intakes = [CaffeineIntake(caffeineMg: 200, consumedAt: now)]
        // 200 -> 100 -> 50: two half-lives, ten hours; under 50 from the next whole minute.
        #expect(model.sleepReadyAt(threshold: 50, now: now, intakes: intakes) == now + .seconds(10 * 3600 + 60))
    }

    @Test func severalDrinksCountTogether() {
        let model = CaffeineModel(halfLifeHours: 5)
        let intakes = [
            CaffeineIntake(caffeineMg: 144, consumedAt: now - .seconds(6 * 3600)),
            CaffeineIntake(caffeineMg: 64, consumedAt: now - .seconds(2 * 3600)),
            CaffeineIntake(caffeineMg: 128, consumedAt: now),
        ]
        let level = 144 * pow(0.5, 6.0 / 5) + 64 * pow(0.5, 2.0 / 5) + 128
        let expected = Double(now.milliseconds) + 5 * log2(level / 50) * 3_600_000
        let ready = model.sleepReadyAt(threshold: 50, now: now, intakes: intakes)
        #expect(ready == ceilMinute(expected))
        // Just after it the level is under the threshold; a minute before, it was not.
        #expect(model.level(at: ready!, of: intakes) < 50)
        #expect(model.level(at: ready! - .seconds(60), of: intakes) >= 50)
    }

    @Test func aDrinkLoggedAheadOfNowCounts() {
        let model = CaffeineModel()
        let soon = now + .seconds(240)
        let intakes = [CaffeineIntake(caffeineMg: 10, consumedAt: now - .seconds(3600)), CaffeineIntake(caffeineMg: 100, consumedAt: soon)]
        // Under the threshold now, but not for long.
        #expect(model.level(at: now, of: intakes) < 50)
        let ready = model.sleepReadyAt(threshold: 50, now: now, intakes: intakes)
        #expect(ready != nil && ready! > soon + .seconds(4 * 3600))
    }

    @Test func alreadyUnderTheThresholdIsNil() {
        let model = CaffeineModel()
        let intakes = [CaffeineIntake(caffeineMg: 64, consumedAt: now - .seconds(10 * 3600))]
        #expect(model.sleepReadyAt(threshold: 50, now: now, intakes: intakes) == nil)
        #expect(model.sleepReadyAt(threshold: 50, now: now, intakes: []) == nil)
    }

    @Test func aLongerHalfLifeKeepsYouUpLonger() {
        let intakes = [CaffeineIntake(caffeineMg: 200, consumedAt: now)]
        let slow = CaffeineModel(halfLifeHours: 8).sleepReadyAt(threshold: 50, now: now, intakes: intakes)
        #expect(slow == now + .seconds(16 * 3600 + 60))
    }

    /// The peak is when the level is highest, not the first moment it stops rising: an espresso had
    /// 31 minutes ago peaks 3 minutes from now, the level falls for two minutes, and a double logged
    /// 5 minutes ahead takes it to 255 mg 35 minutes from now ("rising: peaks at" said the 3 minutes).
    @Test func thePeakIsWhereTheLevelIsHighest() throws {
        let model = CaffeineModel(kind: .personal, halfLifeHours: 3)
        let intakes = [
            CaffeineIntake(caffeineMg: 100, consumedAt: now - .seconds(31 * 60)),
            CaffeineIntake(caffeineMg: 200, consumedAt: now + .seconds(5 * 60)),
        ]
        let peak = try #require(model.peaksAt(now: now, intakes: intakes))
        #expect(peak == now + .seconds(35 * 60))
        let highest = stride(from: 0, through: 6 * 3600, by: 5).map { model.level(at: now + .seconds(Int64($0)), of: intakes) }.max()!
        #expect(model.level(at: peak, of: intakes) >= highest - 0.01)
    }
}
