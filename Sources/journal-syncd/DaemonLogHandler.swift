import CommandLineSupport
import JournalKit
import Logging

import Glibc

/// The daemon's log lines on stderr. Under journald (`JOURNAL_STREAM` names stderr) each line starts
/// with its syslog priority (`<3>` error ... `<7>` debug), so `journalctl -p err` shows every error,
/// and carries no timestamp or level of its own (journald records both); elsewhere each line has
/// both. Text from other devices (file names, reasons) is shown with controls escaped.
struct DaemonLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let toJournald: Bool

    init(level: Logger.Level, toJournald: Bool = Journald.isStderr) {
        logLevel = level
        self.toJournald = toJournald
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var text = TerminalText.escaped(event.message.description)
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        // Metadata (swift-service-lifecycle's included) can quote a path or an error: escaped as the message is,
        // so that no line break starts a line of a forged priority.
        for key in all.keys.sorted() {
            text += " " + TerminalText.escaped(key) + "=" + TerminalText.escaped(all[key].map { "\($0)" } ?? "")
        }
        let line = toJournald
            ? "<\(Self.priority(event.level))>" + text
            : "\(Self.timestamp()) \(event.level) \(text)"
        StandardStreams.writeError(line)
    }

    /// sd-daemon(3)'s priorities.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    /// "2026-11-21T15:30:00+0100", local time.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
