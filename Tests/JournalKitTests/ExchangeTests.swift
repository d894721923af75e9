import Testing
import TestSupport

@testable import JournalKit

@Suite(.onTestThreads) struct ExchangeTests {
    let now = Timestamp(milliseconds: 1_795_262_400_000)
    let drinks = [
        Drink(id: DrinkID(rawValue: "11111111-1111-4111-8111-111111111111"), kind: "espresso", caffeineMg: 64,
              consumedAt: Timestamp(milliseconds: 1_795_162_400_123), note: "with \"quotes\", commas\nand a new line"),
        Drink(id: DrinkID(rawValue: "22222222-2222-4222-8222-222222222222"), kind: "black-tea", caffeineMg: 47.5,
              consumedAt: Timestamp(milliseconds: 1_795_212_400_000)),
        // "\r\n" is one Character in Swift: a field's check by Characters for "\n" or "\r" missed it, and
        // the export wrote the note unquoted, which its own import refused.
        Drink(id: DrinkID(rawValue: "33333333-3333-4333-8333-333333333333"), kind: "espresso", caffeineMg: 64,
              consumedAt: Timestamp(milliseconds: 1_795_212_500_000), note: "a line ending\r\nas Windows ends it"),
    ]

    @Test func jsonExportReadsBackExactly() throws {
        let text = DrinkExchange.jsonArray(drinks)
        #expect(try DrinkExchange.parse(Array(text.utf8), catalog: .builtIn, now: now).drinks == drinks)
        #expect(text.contains("\"caffeine_mg\": 64,"))
        #expect(text.contains("\"note\": null"), "every field present, a missing note as null")
    }

    @Test func csvExportReadsBackExactly() throws {
        let text = DrinkExchange.csv(drinks)
        #expect(text.hasPrefix("id,drink,caffeine_mg,consumed_at,note,drink_serving_mg\r\n"))
        #expect(try DrinkExchange.parse(Array(text.utf8), catalog: .builtIn, now: now).drinks == drinks)
    }

    @Test(arguments: [
        ("[{\"id\": \"11111111-1111-4111-8111-111111111111\", \"drink\": \"espresso\", \"caffeine_mg\": 64, \"consumed_at\": \"2026-11-20T10:00:00Z\"},\n {\"drink\": \"espresso\"}]", "element 2", "id is missing"),
        ("[{\"id\": \"nope\", \"drink\": \"espresso\", \"caffeine_mg\": 64, \"consumed_at\": \"2026-11-20T10:00:00Z\"}]", "element 1", "not a UUID"),
        ("[{\"id\": \"11111111-1111-4111-8111-111111111111\", \"drink\": \"espreso\", \"caffeine_mg\": 64, \"consumed_at\": \"2026-11-20T10:00:00Z\"}]", "element 1", "Did you mean 'espresso'"),
        ("[{\"id\": \"11111111-1111-4111-8111-111111111111\", \"drink\": \"espresso\", \"caffeine_mg\": -4, \"consumed_at\": \"2026-11-20T10:00:00Z\"}]", "element 1", "-4 mg"),
        ("[{\"id\": \"11111111-1111-4111-8111-111111111111\", \"drink\": \"espresso\", \"caffeine_mg\": 64, \"consumed_at\": \"yesterday\"}]", "element 1", "ISO 8601"),
        ("[{\"id\": \"11111111-1111-4111-8111-111111111111\", \"drink\": \"espresso\", \"caffeine_mg\": 64, \"consumed_at\": \"2026-11-20T10:00:00Z\", \"notes\": \"x\"}]", "element 1", "unknown field 'notes'"),
        ("[{\"id\": \"11111111-1111-4111-8111-111111111111\",\n \"drink\": \"espresso\" \"caffeine_mg\": 64}]", "the file", "it is not valid JSON"),
        ("{\"drinks\": []}", "the file", "expected a JSON array"),
        ("id,drink,caffeine_mg,consumed_at,note\n11111111-1111-4111-8111-111111111111,espresso,64,2026-11-20T10:00:00Z,\n22222222-2222-4222-8222-222222222222,tea,lots,2026-11-20T11:00:00Z,\n", "line 3", "'lots' is not a number"),
        ("id,drink,consumed_at\n", "line 1", "no 'caffeine_mg' column"),
        ("id,drink,caffeine_mg,consumed_at,note\n11111111-1111-4111-8111-111111111111,espresso,64\n", "line 2", "3 fields where the header has 5"),
        ("id,drink,caffeine_mg,consumed_at,note\n11111111-1111-4111-8111-111111111111,espresso,64,2026-11-20T10:00:00Z,\"open\n", "line 2", "never closed"),
    ])
    func malformedFilesNameWhereAndWhat(text: String, location: String, problem: String) {
        let error = #expect(throws: ImportFormatError.self) {
            _ = try DrinkExchange.parse(Array(text.utf8), catalog: .builtIn, now: now)
        }
        #expect(error?.location == location)
        #expect(error?.description.contains(problem) == true, "\(error?.description ?? "")")
    }

    @Test func aRepeatedIDMustRepeatTheSameDrink() throws {
        let twice = drinks + [drinks[0]]
        #expect(try DrinkExchange.parse(Array(DrinkExchange.jsonArray(twice).utf8), catalog: .builtIn, now: now).drinks == drinks)
        var changed = drinks[0]
        changed.caffeineMg = 1
        let error = #expect(throws: ImportFormatError.self) {
            _ = try DrinkExchange.parse(Array(DrinkExchange.jsonArray(drinks + [changed]).utf8), catalog: .builtIn, now: now)
        }
        #expect(error?.location == "element \(drinks.count + 1)")
    }

    @Test func jsonThatDoesNotParseIsRefusedAsSuch() throws {
        for garbage in ["[{\"a\" 1}]", "[{\"a\": }]", "[{\"a\": tru}]"] {
            #expect(throws: ImportFormatError(location: "the file", problem: "it is not valid JSON")) {
                _ = try DrinkExchange.parse(Array(garbage.utf8), catalog: .builtIn, now: Timestamp(milliseconds: 0))
            }
        }
        // Nesting deep enough to exhaust a recursive parser's stack is refused, not a crash.
        #expect(throws: ImportFormatError.self) {
            _ = try DrinkExchange.parse(Array(String(repeating: "[", count: 1_000_000).utf8), catalog: .builtIn, now: Timestamp(milliseconds: 0))
        }
    }
}
