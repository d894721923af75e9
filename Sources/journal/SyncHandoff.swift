import CommandLineSupport
import JournalKit

import Glibc

/// `journal sync ...`, once parsed and found valid, is carried out by the sync program: the daemon's
/// binary beside this one, run under the name `journal-sync` with the same arguments. It replaces
/// this process, so its output and exit status are the command's.
enum SyncHandoff {
    static func perform() throws -> Never {
        let program = siblingPath("journal-syncd")
        let arguments = ["journal-sync"] + CommandLine.arguments.dropFirst()
        execv(program, arguments.map { strdup($0) } + [nil])
        throw SyncProgramMissing(path: program, reason: String(cString: strerror(errno)))
    }

    /// `name` in the folder this binary is in.
    private static func siblingPath(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return name }
        let own = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return FileSystem.parentFolder(of: own) + "/" + name
    }
}

/// The sync program is not where it should be: an install that copied `journal` alone.
struct SyncProgramMissing: JournalFailure {
    let path: String
    let reason: String

    var kind: FailureKind { .failure }
    var description: String {
        "journal sync is carried out by \(path), which cannot be run (\(reason)). Install journal-syncd beside "
            + "journal (make install does)."
    }
}
