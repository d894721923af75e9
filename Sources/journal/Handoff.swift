import CommandLineSupport
import JournalKit

import Glibc

/// A command this binary parses and finds valid but does not carry out, as git runs
/// `git-remote-https`: `journal sync ...` and `journal import --from apple-health` go to the daemon's
/// binary beside this one, run under the name `journal-sync` or `journal-import`, with the same
/// arguments. It replaces this process, so its output and exit status are the command's.
enum Handoff {
    /// `journal sync ...`.
    static func sync() throws -> Never { try perform(program: "journal-syncd", name: "journal-sync") }

    /// `journal import --from apple-health`.
    static func importer() throws -> Never { try perform(program: "journal-syncd", name: "journal-import") }

    private static func perform(program name: String, name shownName: String) throws -> Never {
        let program = siblingPath(name)
        let arguments = [shownName] + CommandLine.arguments.dropFirst()
        execv(program, arguments.map { strdup($0) } + [nil])
        throw HelperProgramMissing(path: program, reason: String(cString: strerror(errno)))
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

/// A helper program is not where it should be: an install that copied `journal` alone.
struct HelperProgramMissing: JournalFailure {
    let path: String
    let reason: String

    var kind: FailureKind { .failure }
    var description: String {
        "this command is carried out by \(path), which cannot be run (\(reason)). Install it beside journal "
            + "(make install does)."
    }
}
