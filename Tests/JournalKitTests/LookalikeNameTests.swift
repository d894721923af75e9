import Testing
import TestSupport

@testable import JournalKit

/// Issue 31: no drink of one's own can pass for another drink in a table.
@Suite(.onTestThreads) struct LookalikeNameTests {
    @Test func aLookalikeOfACatalogDrinkOrOfOnesOwnIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            await #expect(throws: LookalikeNameError(name: "\u{435}spresso", lookalike: "espresso", lookalikeIsOwn: false)) {
                _ = try await store.defineDrink(named: "\u{415}spresso", caffeineMg: 10)
            }
            await #expect(throws: LookalikeNameError(name: "c\u{43E}la", lookalike: "cola", lookalikeIsOwn: false)) {
                _ = try await store.defineDrink(named: "c\u{43E}la", caffeineMg: 10)
            }
            _ = try await store.defineDrink(named: "istanbul-çay", caffeineMg: 30)
            await #expect(throws: LookalikeNameError(name: "ıstanbul-çay", lookalike: "istanbul-çay", lookalikeIsOwn: true)) {
                _ = try await store.defineDrink(named: "ıstanbul-çay", caffeineMg: 10)
            }
            // The same name in another form is the same drink, changed.
            #expect(try await store.defineDrink(named: "İSTANBUL-ÇAY", caffeineMg: 35).kind.name == "istanbul-çay")
            #expect(try await store.customDrinkKinds().map(\.name) == ["istanbul-çay"])
            let error = LookalikeNameError(name: "m\u{430}te\u{202E}", lookalike: "mate", lookalikeIsOwn: true)
            #expect(error.description == "'m\u{430}te\\u{202E}' looks like your drink mate: choose another name")
            #expect(error.kind.exitStatus == 64)
        }
    }

    @Test func anImportCannotDefineALookalike() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            _ = try await store.defineDrink(named: "guayusa", caffeineMg: 80)
            await #expect(throws: LookalikeNameError(name: "gu\u{430}yusa", lookalike: "guayusa", lookalikeIsOwn: true)) {
                _ = try await store.importDrinks([], defining: [CustomDrink(name: "gu\u{430}yusa", caffeineMg: 10)])
            }
            #expect(try await store.customDrinkKinds().map(\.name) == ["guayusa"])
        }
    }
}
