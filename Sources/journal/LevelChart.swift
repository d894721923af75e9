import CommandLineSupport
import JournalKit

/// A small chart of the caffeine level over the past and next 12 hours, with the sleep threshold
/// marked: what `journal status` draws on a terminal.
struct LevelChart {
    let status: CaffeineStatus
    let model: CaffeineModel
    let threshold: Double
    /// The chart's columns of levels: 48 (half an hour each), fewer on a narrow terminal (each then
    /// longer), always even, so that now is the middle.
    let columns: Int

    static let widest = 48
    static let narrowest = 12
    static let rows = 6
    static let span: Duration = .seconds(12 * 3600)

    /// The chart for a terminal `lineColumns` wide, or nil when not even the narrowest fits.
    init?(status: CaffeineStatus, threshold: Double, lineColumns: Int?) {
        self.status = status
        self.model = status.model
        self.threshold = threshold
        // Beside the levels: "  │" before, "│ " after, and the longest label ("50 mg sleep", "1205 mg").
        let label = max("\(formatMilligrams(threshold)) mg sleep".count, 8)
        let room = (lineColumns ?? 80) - 5 - label
        guard room >= Self.narrowest else { return nil }
        columns = min(Self.widest, room) / 2 * 2
    }

    /// The level the top row stands for, a whole number of mg: the highest level drawn and the level
    /// now, which the columns, each sampled in the middle of its time, can miss (a drink just had is
    /// at its peak now, and lower a quarter of an hour on); the chart never says less than the
    /// "Caffeine now" above it, whatever the width. Room above the sleep threshold, too, so that it is
    /// never the top.
    static func top(levels: [Double], now: Double, threshold: Double) -> Double {
        max(levels.max() ?? 0, now, threshold * 1.5, 1).rounded(.up)
    }

    /// The chart's lines, oldest time on the left, now in the middle.
    func lines() -> [String] {
        let step = Int64(Self.span.wholeMilliseconds * 2) / Int64(columns)
        let start = status.at - Self.span
        var levels: [Double] = []
        for column in 0..<columns {
            // The middle of each column's half hour.
            let instant = start + .milliseconds(step * Int64(column) + step / 2)
            levels.append(model.level(at: instant, of: status.intakes))
        }
        let top = Self.top(levels: levels, now: status.currentMg, threshold: threshold)
        let eighths = Array(" ▁▂▃▄▅▆▇█")
        let thresholdRow = Int((threshold / top * Double(Self.rows)).rounded(.down))
        var lines: [String] = []
        for row in (0..<Self.rows).reversed() {
            // Runs of level cells and of threshold marks, each coloured once.
            var line = ""
            var levelRun = ""
            var markRun = ""
            for level in levels {
                let filled = level / top * Double(Self.rows) - Double(row)
                if filled > 0 {
                    if !markRun.isEmpty { line += Output.yellow(markRun); markRun = "" }
                    levelRun.append(filled >= 1 ? "█" : eighths[max(1, Int((filled * 8).rounded(.down)))])
                } else {
                    if !levelRun.isEmpty { line += Output.cyan(levelRun); levelRun = "" }
                    if row == thresholdRow { markRun.append("┄") } else { line += " " }
                }
            }
            if !levelRun.isEmpty { line += Output.cyan(levelRun) }
            if !markRun.isEmpty { line += Output.yellow(markRun) }
            let label = row == Self.rows - 1 ? "\(formatMilligrams(top)) mg" : row == thresholdRow ? "\(formatMilligrams(threshold)) mg sleep" : ""
            lines.append("  │" + line + "│ " + label)
        }
        let half = columns / 2
        lines.append("  └" + String(repeating: "─", count: half - 1) + "┴" + String(repeating: "─", count: columns - half) + "┘")
        let left = LocalTime.clockTime(start)
        let middle = "now " + LocalTime.clockTime(status.at)
        let right = LocalTime.clockTime(status.at + Self.span)
        let gap1 = max(1, half - left.count - middle.count / 2)
        let gap2 = max(1, columns + 2 - left.count - gap1 - middle.count - right.count)
        lines.append("   " + left + String(repeating: " ", count: gap1) + middle + String(repeating: " ", count: gap2) + right)
        return lines
    }
}
