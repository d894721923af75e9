import JournalKit
import Synchronization

import Glibc

/// Progress of long work on stderr, shown only when stderr is a terminal: one line rewritten in place
/// at most ten times a second, and cleared when the work ends. Nothing of it reaches a pipe, a file or
/// a CI log, and a short piece of work that ends within its first half second shows nothing at all.
public final class ProgressLine: Sendable {
    private struct State {
        var started: UInt64
        var lastDrawn: UInt64 = 0
        var drawn = false
    }

    private let label: String
    private let state: Mutex<State>

    private init(label: String) {
        self.label = label
        state = Mutex(State(started: Self.now()))
    }

    /// A progress line for `label` ("Importing"), or nil when stderr is not a terminal.
    public static func onTerminal(_ label: String) -> ProgressLine? {
        isatty(STDERR_FILENO) == 1 ? ProgressLine(label: label) : nil
    }

    /// Shows `done` of `total` (a bar and a percentage), or `done` alone when the total is unknown;
    /// `describe` says them in words ("12.5 of 40.0 MB", "3,000 drinks").
    public func update(done: Int64, total: Int64?, _ describe: @autoclosure () -> String) {
        let now = Self.now()
        let due = state.withLock { state -> Bool in
            // Nothing for the first half second, then every tenth of a second.
            guard now - state.started >= 500_000_000, now - state.lastDrawn >= 100_000_000 else { return false }
            state.lastDrawn = now
            state.drawn = true
            return true
        }
        guard due else { return }
        var line = "\r\u{1B}[2K" + label
        if let total, total > 0 {
            let fraction = min(1, max(0, Double(done) / Double(total)))
            let filled = Int(fraction * 24)
            line += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 24 - filled) + "] "
            line += String(Int(fraction * 100)) + "%"
        }
        line += "  " + describe()
        StandardStreams.writeErrorText(line)
    }

    /// Clears the line, if one is shown; before the result is printed, and again (harmlessly) when
    /// the work fails.
    public func finish() {
        let shown = state.withLock { state in
            defer { state.drawn = false }
            return state.drawn
        }
        if shown { StandardStreams.writeErrorText("\r\u{1B}[2K") }
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
