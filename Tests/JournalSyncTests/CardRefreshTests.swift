import Foundation
import JournalKit
import Testing
import TestSupport

@testable import JournalSync

/// A card is written again for its times alone (last published, last synced) only once they are
/// `cardRefreshInterval` old: every new card makes every other device read the cards again, so a card
/// rewritten at every publish cost every add a reading of all the cards on every device.
@Suite(.onTestThreads) struct CardRefreshTests {
    @Test func aPublishWithinTheIntervalLeavesTheCardAndOneAfterItRefreshesIt() async throws {
        for flavor in HubFlavor.allCases {
            try await withTemporaryDirectory { folder in
                let key = SyncKey()
                let place = try flavor.newPlace(in: folder)
                let clock = ManualTestClock()
                let a = try await Machine.make(folder, name: "a", place: place, key: key, clock: clock)
                let b = try await Machine.make(folder, name: "b", place: place, key: key, clock: clock)
                _ = try await a.store.add(drink())
                try await a.sync()
                try await b.sync()
                let first = try await cardOnHub(of: a)
                let firstPublished = try #require(try await keptCard(of: a, on: b)?.publishedAt)

                clock.advance(.seconds(9 * 60))
                _ = try await a.store.add(drink("tea", mg: 30, minute: 1))
                #expect(try await a.sync().published == 1, "\(flavor)")
                #expect(try await cardOnHub(of: a) == first, "a publish 9 minutes after the card wrote it again (\(flavor))")
                try await b.sync()
                #expect(try await b.store.drinks().count == 2, "\(flavor)")

                clock.advance(.seconds(60))
                _ = try await a.store.add(drink("cola", mg: 34, minute: 2))
                #expect(try await a.sync().published == 1, "\(flavor)")
                #expect(try await cardOnHub(of: a) != first, "a publish 10 minutes after the card left it (\(flavor))")
                try await b.sync()
                let refreshed = try #require(try await keptCard(of: a, on: b)?.publishedAt)
                #expect(refreshed.milliseconds - firstPublished.milliseconds == 10 * 60_000, "\(flavor)")
                await a.engine.close()
                await b.engine.close()
            }
        }
    }

    /// A card's time is at most the interval older than the deed it tells: under the interval, where
    /// that is most of the age, it is said as "within", never as an exact age it may not be.
    @Test func aCardsTimeIsSaidNoMorePreciselyThanItIsKept() {
        let now = Timestamp(milliseconds: 1_795_262_400_000)
        func ago(_ milliseconds: Int64) -> String { SyncReport.ago(Timestamp(milliseconds: now.milliseconds - milliseconds), at: now) }
        #expect(SyncReport.ago(nil, at: now) == "never")
        #expect(ago(0) == "just now")
        #expect(ago(59_999) == "just now")
        #expect(ago(60_000) == "within 1 min")
        #expect(ago(60_001) == "within 2 min")
        #expect(ago(SyncEngine.cardRefreshInterval - 1) == "within 10 min")
        #expect(ago(SyncEngine.cardRefreshInterval) == "10 min ago")
        #expect(ago(25 * 60_000) == "25 min ago")
        #expect(ago(3 * 24 * 3_600_000) == "3 days ago")
    }

    private func cardOnHub(of machine: Machine) async throws -> [UInt8]? {
        try await machine.engine.hub.allCards()[machine.store.deviceID]?.get()
    }

    private func keptCard(of machine: Machine, on reader: Machine) async throws -> DeviceCard? {
        try await reader.store.deviceCards(hubID: reader.engine.hub.id).first { $0.device == machine.store.deviceID }
    }
}
