import Testing
import TestSupport

@testable import CommandLineSupport
@testable import journal

/// Tables line up by the columns text takes on a terminal, not by its characters.
@Suite(.onTestThreads) struct DisplayWidthTests {
    @Test(arguments: [
        ("latte", 5), ("抹茶ラテ", 8), ("카페라테", 8), ("café-crème", 10), ("cafe\u{301}", 4), ("ａｂｃ", 6),
        ("☕", 2), ("👩‍💻", 2), ("e\u{301}\u{302}\u{303}", 1), ("", 0), ("ｶﾌｪ", 3),
    ])
    func measuresColumns(text: String, columns: Int) {
        #expect(DisplayWidth.of(text) == columns)
    }

    @Test func cutsAtACharacterBoundaryWithAnEllipsis() {
        #expect(DisplayWidth.cut("抹茶ラテ", to: 6) == "抹茶…")
        #expect(DisplayWidth.cut("抹茶ラテ", to: 5) == "抹茶…")
        #expect(DisplayWidth.cut("cafe\u{301} au lait", to: 5) == "cafe\u{301}…")
        #expect(DisplayWidth.cut("latte", to: 5) == "latte")
        #expect(DisplayWidth.cut("👩‍💻👩‍💻", to: 3) == "👩‍💻…")
    }

    @Test func aTableLinesUpWideAndCombiningText() {
        let rows = [["抹茶ラテ", "70"], ["cafe\u{301}", "80"], ["카페", "90"]]
        let layout = TableLayout(header: ["DRINK", "MG"], rows: rows, lineWidth: nil)
        let lines = rows.map(layout.line)
        #expect(lines == ["抹茶ラテ  70", "cafe\u{301}      80", "카페      90"])
        let narrow = TableLayout(header: ["DRINK", "NOTE"], rows: [["latte", "抹茶ラテ抹茶ラテ"]], lineWidth: 12)
        // Too little room beside the row: the note goes under it, broken between characters.
        #expect(narrow.line(["latte", "抹茶ラテ抹茶ラテ"]) == "latte\n      抹茶ラ\n      テ抹茶\n      ラテ")
        let beside = TableLayout(header: ["DRINK", "NOTE"], rows: [["latte", "with oat milk and a shot more"]], lineWidth: 24)
        #expect(beside.line(["latte", "with oat milk and a shot more"]) == "latte  with oat milk and\n       a shot more")
    }
}

/// The room left said in drinks, whatever the last drink's amount.
@Suite(.onTestThreads) struct RoomWordsTests {
    @Test func saysTheRoomInTermsOfTheLastDrink() {
        #expect(RoomWords.drinks(59, lastDrink: ("black-tea", 47)) == ": room for one black-tea (47 mg)")
        #expect(RoomWords.drinks(200, lastDrink: ("espresso", 64)) == ": room for 3 × espresso (64 mg each)")
        #expect(RoomWords.drinks(20, lastDrink: ("espresso", 64)) == ": not enough for one espresso (64 mg)")
        #expect(RoomWords.drinks(20, lastDrink: ("decaf", 0)) == "")
        // A drink of almost nothing makes a ratio no integer holds.
        #expect(RoomWords.drinks(1390, lastDrink: ("espresso", 1e-17)).hasPrefix(": room for 100 or more × espresso"))
    }
}
