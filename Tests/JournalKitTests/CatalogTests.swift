import Testing
import TestSupport

@testable import JournalKit

@Suite(.onTestThreads) struct CatalogTests {
    let catalog = DrinkCatalog.builtIn

    @Test(arguments: [
        ("espresso", "espresso", 64.0), ("single-espresso", "espresso", 64), ("coffee", "medium-coffee", 144),
        ("tea", "black-tea", 47), ("cola", "soft-drink", 22), ("Double Espresso", "double-espresso", 128),
        ("QUAD_ESPRESSO", "quad-espresso", 256), ("small-coffee", "small-coffee", 96), ("large-coffee", "large-coffee", 192),
        ("green-tea", "green-tea", 28), ("energy-drink", "energy-drink", 80), ("chocolate", "chocolate", 18),
        ("decaf-coffee", "decaf-coffee", 1), ("instant-coffee", "instant-coffee", 62), ("energy-shot", "energy-shot", 200),
        ("latte", "latte", 150), ("cappuccino", "cappuccino", 150), ("americano", "americano", 225), ("Flat White", "flat-white", 195),
        ("cold brew", "cold-brew", 200), ("matcha", "matcha", 48), ("mate", "mate", 78), ("yerba mate", "mate", 78),
    ])
    func knowsTheCoffeeTrackerAndMayoClinicDrinks(name: String, canonical: String, mg: Double) throws {
        let kind = try catalog.resolve(name)
        #expect(kind.name == canonical)
        #expect(kind.caffeineMg == mg)
    }

    /// Every drink of the catalog names its serving and where its figure is from.
    @Test func everyDrinkNamesItsServingAndSource() {
        for kind in catalog.kinds {
            #expect(!(kind.serving ?? "").isEmpty && !kind.source.isEmpty, "\(kind.name)")
        }
        #expect(catalog.kind(named: "espresso")?.serving == "single shot 30 ml")
        #expect(catalog.kind(named: "energy-drink")?.serving == "250 ml can")
    }

    @Test func suggestsTheClosestNamesForAnUnknownDrink() {
        #expect(throws: UnknownDrinkError(name: "espreso", suggestions: ["espresso"])) {
            _ = try catalog.resolve("espreso")
        }
        #expect(catalog.suggestions(for: "kvass").isEmpty)
        #expect(catalog.suggestions(for: "lattee").first == "latte")
        #expect(catalog.suggestions(for: "green").first == "green-tea")
        let error = #expect(throws: UnknownDrinkError.self) { _ = try catalog.resolve("mocha") }
        #expect(error?.remedy == .listOrDefineDrinks)
    }
}

/// One canonical text per name, whatever way it is typed.
@Suite(.onTestThreads) struct DrinkNameCanonicalTests {
    @Test(arguments: [
        ("Double Espresso", "double-espresso"), ("double_espresso", "double-espresso"), ("  oat--latte  ", "oat-latte"),
        ("ＤＯＵＢＬＥ-espresso", "double-espresso"), ("ｶﾞｰﾅ", "ガーナ"), ("Cafe\u{301}", "café"), ("CAFÉ", "café"),
        ("抹茶ラテ", "抹茶ラテ"), ("抹茶　ラテ", "抹茶-ラテ"), ("ΚΑΦΕ", "καφε"),
        // Issue 31: NFKC_Casefold, with İ as i.
        ("\u{FB00}-latte", "ff-latte"), ("ΣΟΦΙΑΣ", "σοφιασ"), ("σοφιας", "σοφιασ"), ("İstanbul-çay", "istanbul-çay"),
        ("i\u{307}stanbul-çay", "istanbul-çay"), ("Weiß-Bier", "weiss-bier"), ("\u{3314}", "キロ"), ("\u{2167}-tea", "viii-tea"),
        ("\u{13A0}\u{AB71}", "\u{AB70}\u{AB71}"), ("I\u{307}\u{301}", "í"),
    ])
    func canonical(typed: String, name: String) throws {
        #expect(DrinkName.canonical(typed) == name)
        #expect(DrinkName.canonical(typed).unicodeScalars.elementsEqual(name.unicodeScalars))
        try DrinkName.check(DrinkName.canonical(typed))
    }

    /// Names earlier journals took stay valid; what is not canonical is refused as a record.
    @Test func recordsKeepTheirNamesOrAreRefused() throws {
        for kept in ["tea-", "a--b", "oat-latte", "x9"] { try DrinkName.check(kept) }
        // Issue 31: as earlier journals stored them before names were folded fully.
        for kept in ["weiß-bier", "\u{FB00}-latte", "σοφιασ", "σοφιας", "i\u{307}stanbul-çay", "\u{AB70}"] { try DrinkName.check(kept) }
        for refused in ["Café", "cafe\u{301}", "ａ", "9x", "", "-tea", "tea latte", "\u{13A0}", "İstanbul"] {
            #expect(throws: InvalidRecordError.self, "\(refused)") { try DrinkName.check(refused) }
        }
    }
}
