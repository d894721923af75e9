import Testing
import TestSupport

@testable import CommandLineSupport

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
        #expect(narrow.line(["latte", "抹茶ラテ抹茶ラテ"]) == "latte  抹茶…")
    }
}
