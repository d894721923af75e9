import Testing
import TestSupport

@testable import JournalKit

@Suite(.onTestThreads) struct CustomDrinkTests {
    @Test func definedDrinksJoinTheCatalogAndRemovalKeepsHistory() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            let latte = try await store.defineDrink(named: "Oat Latte", caffeineMg: 130).kind
            #expect(latte == DrinkKind(name: "oat-latte", caffeineMg: 130, source: "your own", isCustom: true))
            #expect(try await store.catalog().kind(named: "oat latte") == latte)
            let logged = try await store.add(NewDrink(kind: latte.name, caffeineMg: latte.caffeineMg, consumedAt: Timestamp(milliseconds: 0)))
            _ = try await store.defineDrink(named: "oat-latte", caffeineMg: 150)
            #expect(try await store.catalog().kind(named: "oat-latte")?.caffeineMg == 150)
            _ = try await store.removeDrinkKind(named: "oat-latte")
            #expect(try await store.catalog().kind(named: "oat-latte") == nil)
            #expect(try await store.drinks() == [logged])
            await #expect(throws: CustomDrinkError.notFound("oat-latte", suggestions: [])) {
                _ = try await store.removeDrinkKind(named: "oat-latte")
            }
        }
    }

    @Test func builtInNamesAndOddNamesAreRefused() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            let builtIn = await #expect(throws: InvalidRecordError.self) { _ = try await store.defineDrink(named: "Coffee", caffeineMg: 1) }
            #expect(builtIn?.description == "'coffee' is a built-in drink, so a drink of your own cannot have that name")
            await #expect(throws: CustomDrinkError.builtInCannotBeRemoved("espresso")) { _ = try await store.removeDrinkKind(named: "espresso") }
            for name in ["", "9lives", "tea/2", String(repeating: "x", count: 41), "☕", "抹茶·ラテ"] {
                let refused = await #expect(throws: InvalidRecordError.self) { _ = try await store.defineDrink(named: name, caffeineMg: 1) }
                #expect(refused?.description.contains("cannot name a drink") == true)
            }
            await #expect(throws: InvalidRecordError.self) { _ = try await store.defineDrink(named: "huge", caffeineMg: 5000) }
            #expect(try await store.customDrinkKinds().isEmpty)
        }
    }

    /// Issue 31: drinks an earlier journal stored under the form their names had then (before names
    /// were folded fully) answer to every form of their names, and keep their stored names when
    /// changed or removed, which is what their other machines know them by.
    @Test func drinksStoredUnderAnEarlierFormOfTheirNameAreFound() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            let earlier = ["weiß-bier", "\u{FB00}-latte", "σοφιασ", "i\u{307}stanbul-çay"]
            _ = try await store.importDrinks([], defining: earlier.map { CustomDrink(name: $0, caffeineMg: 10) })
            let catalog = try await store.catalog()
            for (typed, stored) in [
                ("Weiss-Bier", "weiß-bier"), ("weiß-bier", "weiß-bier"), ("ff-latte", "\u{FB00}-latte"), ("\u{FB00}-latte", "\u{FB00}-latte"),
                ("σοφιας", "σοφιασ"), ("istanbul-çay", "i\u{307}stanbul-çay"), ("İstanbul-çay", "i\u{307}stanbul-çay"),
            ] {
                #expect(catalog.kind(named: typed)?.name == stored, "\(typed)")
            }
            #expect(try await store.defineDrink(named: "weiss-bier", caffeineMg: 12).kind.name == "weiß-bier")
            #expect(try await store.removeDrinkKind(named: "FF-LATTE").name == "\u{FB00}-latte")
            #expect(try await store.customDrinkKinds().map(\.name).sorted() == ["i\u{307}stanbul-çay", "σοφιασ", "weiß-bier"].sorted())
            #expect(try await store.catalog().kind(named: "weiss-bier")?.caffeineMg == 12)
        }
    }

    /// Every version takes the same records: a peer's drink of its own called by a name the catalog
    /// gained later (an earlier version's "latte", "yerba mate") is a valid record; one by a name every
    /// version's catalog has is not.
    @Test func aPeersDrinkByALaterCatalogNameIsValid() throws {
        for name in ["latte", "yerba-mate", "mate", "cold-brew"] { try CustomDrink(name: name, caffeineMg: 130).validate() }
        for name in ["espresso", "tea", "cola"] {
            #expect(throws: InvalidRecordError.self) { try CustomDrink(name: name, caffeineMg: 130).validate() }
        }
    }

    @Test func customDrinksShareTheChangeSequenceWithDrinks() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db", clock: ManualClock())
            _ = try await store.add(NewDrink(kind: "espresso", caffeineMg: 64, consumedAt: Timestamp(milliseconds: 0)))
            _ = try await store.defineDrink(named: "guayusa", caffeineMg: 80)
            _ = try await store.add(NewDrink(kind: "guayusa", caffeineMg: 80, consumedAt: Timestamp(milliseconds: 1)))
            let own = try await store.ownChanges(after: 0, limit: 10)
            #expect(own.records.map(\.sequence) == [1, 2, 3])
            #expect(own.records.map(\.kind) == [Drink.kind, CustomDrink.kind, Drink.kind])
            #expect(own.through == 3)
            let firstTwo = try await store.ownChanges(after: 0, limit: 2)
            #expect(firstTwo.count == 2)
            #expect(firstTwo.through == 2)
            #expect(try await store.ownChanges(after: 2, limit: 2).records.map(\.sequence) == [3])
        }
    }
}
