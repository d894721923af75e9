import Testing
import TestSupport

@testable import JournalKit

@Suite(.onTestThreads) struct AnchoredQueryTests {
    static let pageSize = 7

    @Test(arguments: [0, 1, pageSize, pageSize + 1, 3 * pageSize])
    func pagingVisitsEveryChangeOnceAtExactBoundaries(count: Int) async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            var added: [DrinkID] = []
            for index in 0..<count {
                added.append(try await store.add(espresso(at: Timestamp(milliseconds: Int64(index)))).id)
            }
            var anchor: Anchor?
            var seen: [DrinkID] = []
            var pages = 0
            while true {
                let page = try await store.changes(since: anchor, limit: Self.pageSize)
                pages += 1
                seen += page.records.map(\.payload.id)
                #expect(page.records.count <= Self.pageSize)
                if !page.mayHaveMore(limit: Self.pageSize) { break }
                #expect(page.newAnchor != anchor)
                anchor = page.newAnchor
            }
            #expect(seen == added)
            #expect(pages == count / Self.pageSize + 1)
        }
    }

    @Test func nilAnchorReturnsEverythingIncludingTombstones() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            let kept = try await store.add(espresso(at: Timestamp(milliseconds: 0)))
            let gone = try await store.add(espresso(at: Timestamp(milliseconds: 1)))
            _ = try await store.remove([gone.id])
            let all = try await store.changes(since: nil, limit: 100)
            #expect(all.upserted == [kept])
            #expect(all.deletedIDs == [gone.id])
            #expect(all.newAnchor == Anchor(sequence: 3))
        }
    }

    @Test func changesAfterAnAnchorAreOnlyTheNewWritesInOrder() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            let first = try await store.add(espresso(at: Timestamp(milliseconds: 0)))
            let second = try await store.add(espresso(at: Timestamp(milliseconds: 1)))
            let anchor = try await store.changes(since: nil, limit: 100).newAnchor
            let edited = try await store.edit(second.id, DrinkEdit(note: "edited"))
            _ = try await store.remove([first.id])
            let third = try await store.add(espresso(at: Timestamp(milliseconds: 2)))
            let changes = try await store.changes(since: anchor, limit: 100)
            #expect(changes.records.map(\.payload.id) == [second.id, first.id, third.id])
            #expect(changes.upserted == [edited, third])
            #expect(changes.deletedIDs == [first.id])
            let nothing = try await store.changes(since: changes.newAnchor, limit: 100)
            #expect(nothing.records.isEmpty)
            #expect(nothing.newAnchor == changes.newAnchor)
        }
    }
}
