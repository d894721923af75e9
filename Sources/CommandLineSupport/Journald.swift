import JournalKit

import Glibc

/// journald, when it is what stderr writes to: systemd names the stream in `JOURNAL_STREAM`
/// ("device:inode"), and lines then carry their syslog priority (`<3>` error ... `<7>` debug) instead
/// of a timestamp and level, which journald records itself.
public enum Journald {
    /// True when `JOURNAL_STREAM` names the file stderr is (a child that inherited the variable but
    /// not the stream still writes plain lines).
    public static let isStderr: Bool = {
        guard let parts = JournalPaths.environment("JOURNAL_STREAM")?.split(separator: ":"), parts.count == 2,
            let device = UInt64(parts[0]), let inode = UInt64(parts[1])
        else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }()

    /// The priority prefix of an error line.
    public static let errorPrefix = "<3>"
}
