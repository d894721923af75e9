import Foundation
import Testing
import TestSupport

@testable import JournalKit

@Suite(.onTestThreads) struct CaffeineTests {
    let start = Timestamp(milliseconds: 1_795_262_400_000)

    /// `status` reads its window from the covering index alone: a few pages, never a drink's row.
    @Test func statusReadsItsWindowFromTheCoveringIndexAlone() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/j.db"
            _ = try await JournalStore(path: path)
            let plan = try queryRows("EXPLAIN QUERY PLAN " + JournalStore.statusWindowSQL, on: path).compactMap { row in
                if case .text(let detail) = row.last { detail } else { nil }
            }
            // The drinks from the index alone; the few drinks of one's own that are slow, listed once.
            #expect(plan.count == 3 && plan[0].contains("SEARCH drinks USING COVERING INDEX drinks_live_by_time"), "\(plan)")
            #expect(plan[1].contains("LIST SUBQUERY") && plan[2].contains("custom_drinks"), "\(plan)")
        }
    }

    @Test func halvesEveryHalfLife() {
        let model = CaffeineModel()
        #expect(model.remaining(CaffeineIntake(caffeineMg: 100, consumedAt: start), at: start) == 100)
        #expect(abs(model.remaining(CaffeineIntake(caffeineMg: 100, consumedAt: start), at: start + .seconds(5 * 3600)) - 50) < 1e-9)
        #expect(abs(model.remaining(CaffeineIntake(caffeineMg: 100, consumedAt: start), at: start + .seconds(10 * 3600)) - 25) < 1e-9)
        #expect(model.remaining(CaffeineIntake(caffeineMg: 100, consumedAt: start + .seconds(60)), at: start) == 0)
        let slow = CaffeineModel(halfLifeHours: 8)
        #expect(abs(slow.remaining(CaffeineIntake(caffeineMg: 64, consumedAt: start), at: start + .seconds(8 * 3600)) - 32) < 1e-9)
    }

    @Test func levelSumsWhatIsLeftOfEachDrinkHadByThen() {
        let model = CaffeineModel()
        let intakes = [
            CaffeineIntake(caffeineMg: 128, consumedAt: start),
            CaffeineIntake(caffeineMg: 64, consumedAt: start + .seconds(5 * 3600)),
            CaffeineIntake(caffeineMg: 500, consumedAt: start + .seconds(20 * 3600)),
        ]
        #expect(abs(model.level(at: start + .seconds(5 * 3600), of: intakes) - (64 + 64)) < 1e-9)
    }

    @Test func statusCountsCurrentLevelAndTheLocalDay() async throws {
        try await withTemporaryDirectory { folder in
            let today = LocalTime.components(start).date
            let noon = try #require(localInstant(today, hour: 12))
            let clock = ManualClock(noon)
            let store = try await JournalStore(path: folder + "/j.db", clock: clock)
            let yesterdayEvening = try #require(localInstant(today.adding(days: -1), hour: 22))
            _ = try await store.add(NewDrink(kind: "large-coffee", caffeineMg: 192, consumedAt: yesterdayEvening))
            _ = try await store.add(NewDrink(kind: "espresso", caffeineMg: 64, consumedAt: noon - .seconds(5 * 3600)))
            _ = try await store.add(NewDrink(kind: "double-espresso", caffeineMg: 128, consumedAt: noon))
            let gone = try await store.add(NewDrink(kind: "quad-espresso", caffeineMg: 256, consumedAt: noon))
            _ = try await store.remove([gone.id])
            let status = try await store.status()
            #expect(status.todayMg == 192)
            #expect(status.drinksToday == 2)
            #expect(status.cupsToday == 2)
            let yesterdayLeft = 192 * pow(0.5, noon.hours(since: yesterdayEvening) / 5)
            #expect(abs(status.currentMg - (128 + 32 + yesterdayLeft)) < 1e-6)
        }
    }

    /// A drink dated after now has not been had yet, whatever its record's clock says (a member that
    /// sets both in 2199 breaks no rule a record can be checked by): the level, the day, sleep-ready
    /// and the bedtime leave it out, so it cannot keep anyone "awake" until 2200.
    @Test func aDrinkDatedAfterNowCountsInNoNumber() async throws {
        try await withTemporaryDirectory { folder in
            let today = LocalTime.components(start).date
            let noon = try #require(localInstant(today, hour: 12))
            let store = try await JournalStore(path: folder + "/j.db", clock: FixedClock(noon))
            _ = try await store.add(NewDrink(kind: "espresso", caffeineMg: 64, consumedAt: noon - .seconds(2 * 3600)))
            // As a peer's records arrive: tonight, and in 2199, each written when its clock said so.
            let peer = DeviceID(rawValue: UUIDText.random())
            let ahead = [noon + .seconds(8 * 3600), Timestamp(milliseconds: 7_258_000_000_000)].map { time in
                AnyReplicated(Replicated(
                    payload: Drink(id: DrinkID(rawValue: UUIDText.random()), kind: "quad-espresso", caffeineMg: 256, consumedAt: time),
                    isDeleted: false, clock: HybridTimestamp(milliseconds: time.milliseconds), origin: peer, sequence: 0))
            }
            #expect(try await store.applyReceived(ahead, from: peer, through: 2, hubID: "hub").applied == 2)
            let bedtime = try #require(ClockTime(hour: 23, minute: 0))
            let status = try await store.status(settings: JournalSettings(bedtime: bedtime))
            #expect(status.todayMg == 64 && status.drinksToday == 1)
            #expect(status.intakes.count == 1)
            // 48.5 mg at noon, under the 50 mg threshold: sleep-ready now, not from 2200.
            #expect(status.sleepReadyAt == nil)
            let night = try #require(status.bedtime)
            #expect(abs(night.levelMg - 64 * pow(0.5, night.bedtime.hours(since: noon - .seconds(2 * 3600)) / 5)) < 1e-9)
            #expect(!night.isCurfew)
            // Left out, and said: how many, and when the first is.
            #expect(status.futureDrinks == FutureDrinks(count: 2, first: noon + .seconds(8 * 3600)))
        }
    }

    func localInstant(_ date: LocalDate, hour: Int) -> Timestamp? {
        if case .unique(let instant) = LocalTime.resolve(date, hour: hour, minute: 0) { return instant }
        return nil
    }

}
