import Glibc
import JournalKit

/// Asks the person at the terminal for a secret, without echoing it, or a yes or no: on /dev/tty, as
/// ssh and psql do, so that stdin stays free for the key and nothing of it reaches a pipe or a log.
enum TerminalPrompt {
    /// True when there is a terminal to ask on.
    static var isAvailable: Bool {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }

    /// The line typed after `prompt`, without its newline; nil without a terminal or at end of input.
    @Sendable static func secret(_ prompt: String) -> String? { line(after: prompt, echoing: false) }

    /// True when the person at the terminal answers `question` with y or yes; false for anything
    /// else, and without a terminal.
    static func confirm(_ question: String) -> Bool {
        guard let answer = line(after: question, echoing: true) else { return false }
        return ["y", "yes"].contains(answer.trimmingSpaces.lowercased())
    }

    private static func line(after prompt: String, echoing: Bool) -> String? {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var saved = termios()
        let isTerminal = !echoing && tcgetattr(descriptor, &saved) == 0
        if isTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            tcsetattr(descriptor, TCSAFLUSH, &quiet)
        }
        defer { if isTerminal { tcsetattr(descriptor, TCSAFLUSH, &saved) } }
        _ = Array(prompt.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while line.count < 4096 {
            let count = read(descriptor, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte == 10 { break }
            line.append(byte)
        }
        if line.last == 13 { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
