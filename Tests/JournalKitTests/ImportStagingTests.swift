import Testing
import TestSupport

@testable import JournalKit

/// Drinks staged for an import come back once each, in the order read, whatever repeats the export
/// held; a drink read again with other values is a conflict, left out and told with both its lines.
@Suite(.onTestThreads) struct ImportStagingTests {
    func drink(_ id: String, mg: Double, at seconds: Int64) -> Drink {
        Drink(
            id: DrinkID(rawValue: id), kind: mg == 64 ? "espresso" : "health-app", caffeineMg: mg,
            consumedAt: Timestamp(milliseconds: seconds * 1000))
    }

    @Test func repeatsAreImportedOnceAndConflictsLeftOutWithBothLines() async throws {
        try await withTemporaryDirectory { folder in
            let a = drink("aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa", mg: 64, at: 1)
            let b = drink("bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb", mg: 77, at: 2)
            let c = drink("cccccccc-cccc-4ccc-8ccc-cccccccccccc", mg: 64, at: 3)
            var otherB = b
            otherB.caffeineMg = 88
            let staging = try ImportStaging()
            for (line, staged) in [(10, c), (20, a), (30, b), (40, a), (50, otherB), (60, a)] {
                let custom = staged.kind == "health-app" ? CustomDrink(name: "health-app", caffeineMg: staged.caffeineMg) : nil
                try staging.stage(staged, line: line, label: "sample \(line)", defining: custom)
            }
            var conflicts: [ImportStaging.Conflict] = []
            try staging.finish { conflicts.append($0) }
            #expect(conflicts == [ImportStaging.Conflict(line: 50, firstLine: 30, label: "sample 50")])
            #expect(staging.count == 3 && staging.repeats == 2)

            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            let summary = try await store.importStaged(staging)
            #expect(summary == ImportSummary(added: 3, alreadyPresent: 2))
            #expect(try await store.drinks() == [a, b, c])
            #expect(try await store.customDrinkKinds().map(\.caffeineMg) == [77])
        }
    }
}
