import Foundation

/// A test server's processes stopped with SIGSTOP, as a machine that stalls: the kernel still takes
/// connections into the server's listen backlog, and nothing is answered, mid-way or not. The test
/// that froze it thaws it (`thaw`), also when it fails: a frozen server cannot be stopped.
public struct FrozenServer: Sendable {
    public let processes: [pid_t]

    /// Freezes the server's postmaster, then every process it started: stopped first, it starts none
    /// after the others are found.
    public init(_ server: PostgresServer) throws {
        let text = try String(contentsOfFile: server.folder + "/data/postmaster.pid", encoding: .utf8)
        guard let line = text.split(separator: "\n").first, let postmaster = pid_t(line) else {
            throw FixtureError("no postmaster pid in \(server.folder)/data/postmaster.pid")
        }
        guard kill(postmaster, SIGSTOP) == 0 else { throw FixtureError("cannot stop the postmaster (pid \(postmaster))") }
        var processes = [postmaster]
        for child in Self.children(of: postmaster) where kill(child, SIGSTOP) == 0 { processes.append(child) }
        self.processes = processes
    }

    /// Lets every frozen process go on.
    public func thaw() {
        for process in processes { kill(process, SIGCONT) }
    }

    /// The processes whose parent is `parent`, from /proc.
    private static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                // The fields after the command's name, which is in parentheses and may hold anything:
                // state, then the parent's pid.
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent ? pid : nil
        }
    }
}
