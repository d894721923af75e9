import CommandLineSupport
import JournalKit

/// A terminal scatter of the nights: caffeine at lights-out across, time to fall asleep up; `·` a
/// night, `•` two or more in one cell, `¦` the sleep threshold.
struct SleepScatter {
    let rows: [SleepReport.Row]
    let thresholdMg: Double
    let columns: Int?

    static let height = 10

    func lines() -> [String] {
        let width = max(20, min(60, (columns ?? 80) - 12))
        let maxMg = max(thresholdMg * 1.25, rows.map(\.caffeineAtLightsOutMg).max() ?? 0)
        let maxMinutes = max(10, rows.compactMap(\.night.latencyMinutes).max() ?? 0)
        var cells = Array(repeating: Array(repeating: 0, count: width), count: Self.height)
        // A night without a time to fall asleep has no place on it.
        for row in rows {
            guard let latency = row.night.latencyMinutes else { continue }
            let x = min(width - 1, Int(row.caffeineAtLightsOutMg / maxMg * Double(width - 1)))
            let y = min(Self.height - 1, Int(latency / maxMinutes * Double(Self.height - 1)))
            cells[y][x] += 1
        }
        let thresholdColumn = Int(thresholdMg / maxMg * Double(width - 1))
        var lines = DisplayWidth.wrapped("To fall asleep (min) against caffeine at lights-out (mg)", to: columns)
        for y in (0..<Self.height).reversed() {
            let label = y == Self.height - 1 ? formatMilligrams(maxMinutes.rounded(.up)) : y == 0 ? "0" : ""
            var line = String(repeating: " ", count: max(0, 6 - label.count)) + label + " │"
            for x in 0..<width {
                let count = cells[y][x]
                line += count > 1 ? "•" : count == 1 ? "·" : x == thresholdColumn ? "¦" : " "
            }
            lines.append(line)
        }
        lines.append("       └" + String(repeating: "─", count: width))
        let right = "\(formatMilligrams(maxMg.rounded(.up))) mg"
        lines.append("        0" + String(repeating: " ", count: max(1, width - 1 - right.count)) + right)
        lines.append("        ¦ your sleep threshold, \(formatMilligrams(thresholdMg)) mg")
        return lines
    }
}
