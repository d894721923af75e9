import CommandLineSupport
import JournalKit

/// A year at a glance, as a contribution calendar: a column per week (Monday first), a row per
/// weekday, each day shaded by its total against the daily limit, months named above the week they
/// start in. The shades read without colour; on a terminal (and without NO_COLOR) they are coloured
/// too, red past the limit.
struct CalendarChart {
    /// How a day's total stands against the daily limit.
    enum Shade: Int, CaseIterable {
        case none, quarter, half, limit, over

        init(mg: Double, limit: Double) {
            switch mg {
            case ...0: self = .none
            case ...(limit / 4): self = .quarter
            case ...(limit / 2): self = .half
            case ...limit: self = .limit
            default: self = .over
            }
        }

        var glyph: Character {
            switch self {
            case .none: return "·"
            case .quarter: return "░"
            case .half: return "▒"
            case .limit: return "▓"
            case .over: return "█"
            }
        }

        /// The name `--json` gives it.
        var name: String {
            switch self {
            case .none: return "none"
            case .quarter: return "up-to-quarter"
            case .half: return "up-to-half"
            case .limit: return "up-to-limit"
            case .over: return "over-limit"
            }
        }

        func coloured(_ text: String) -> String {
            switch self {
            case .none: return Output.dim(text)
            case .over: return Output.red(text)
            default: return Output.cyan(text)
            }
        }
    }

    static let weeks = 53
    static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The days the calendar shows: from the Monday 52 weeks before the week of `today`, through today.
    static func firstDay(today: LocalDate) -> LocalDate {
        today.adding(days: -(mondayIndex(today) + 7 * (weeks - 1)))
    }

    /// 0 for Monday to 6 for Sunday.
    static func mondayIndex(_ date: LocalDate) -> Int {
        (date.weekday + 6) % 7
    }

    let totals: [DayTotal]
    let limit: Double
    /// The columns it may take; nil for all 53 weeks.
    let columns: Int?

    init(totals: [DayTotal], limit: Double, columns: Int? = nil) {
        self.totals = totals
        self.limit = limit
        self.columns = columns
    }

    /// The columns before the weeks: a weekday's name and a space.
    static let labelColumns = 4

    /// How many of the latest weeks fit (at least 4).
    var weeksShown: Int { min(Self.weeks, max(4, (columns ?? Int.max / 2) - Self.labelColumns)) }

    /// The first day of the first week shown.
    var firstShown: LocalDate {
        let skipped = (Self.weeks - weeksShown) * 7
        return skipped < totals.count ? totals[skipped].date : totals.first?.date ?? LocalDate(year: 1970, month: 1, day: 1)
    }

    /// The chart's lines: month labels, seven weekday rows, a blank line and the legend.
    func lines() -> [String] {
        guard !totals.isEmpty else { return [] }
        // Each day's week column and weekday row, from its place after the first Monday.
        var grid = [[Shade?]](repeating: [Shade?](repeating: nil, count: weeksShown), count: 7)
        var monthStarts: [(column: Int, month: Int)] = []
        // The weeks left out are the oldest: the grid starts at the first week shown.
        let skipped = Self.weeks - weeksShown
        for (offset, day) in totals.enumerated() {
            let (column, row) = (offset / 7 - skipped, offset % 7)
            guard column >= 0 else { continue }
            guard column < weeksShown else { break }
            grid[row][column] = Shade(mg: day.caffeineMg, limit: limit)
            if day.date.day == 1 || offset == skipped * 7 { monthStarts.append((column, day.date.month)) }
        }
        // A month the calendar starts in the middle of is named only when there is room before the next.
        if monthStarts.count > 1, firstShown.day != 1, monthStarts[1].column - monthStarts[0].column < 4 { monthStarts.removeFirst() }
        var labels = [Character](repeating: " ", count: weeksShown)
        var free = 0
        for start in monthStarts where start.column >= free && start.column + 3 <= labels.count {
            for (index, letter) in Self.monthNames[start.month - 1].enumerated() { labels[start.column + index] = letter }
            free = start.column + 4
        }
        // Trailing spaces only: the leading ones place the first label over its week.
        var lines = ["    " + String(labels).trimmingTrailingSpaces]
        for row in 0..<7 {
            var line = (row % 2 == 0 ? Self.weekdayNames[row] : "   ") + " "
            // Runs of one shade, each coloured once; the days after today end the row.
            let cells = grid[row].prefix { $0 != nil }.compactMap { $0 }
            var index = 0
            while index < cells.count {
                var end = index
                while end < cells.count && cells[end] == cells[index] { end += 1 }
                line += cells[index].coloured(String(repeating: cells[index].glyph, count: end - index))
                index = end
            }
            lines.append(line)
        }
        let mg = formatMilligrams
        lines.append("")
        // The legend's items, on as many lines as the width needs.
        let items = [
            Shade.none.coloured("·") + " none", Shade.quarter.coloured("░") + " to \(mg(limit / 4))",
            Shade.half.coloured("▒") + " to \(mg(limit / 2))", Shade.limit.coloured("▓") + " to \(mg(limit)) mg (the limit)",
            Shade.over.coloured("█") + " over",
        ]
        var legend = "    "
        for item in items {
            let next = legend == "    " ? legend + item : legend + "  " + item
            if let columns, DisplayWidth.visible(next) > columns, legend != "    " {
                lines.append(legend)
                legend = "    " + item
            } else {
                legend = next
            }
        }
        lines.append(legend)
        return lines
    }
}
