import Foundation

/// A server process a test starts, and a watcher that stops it when the test process ends, however it
/// ends (a failed test, a crash, a kill): what every test server shares.
public enum ServerWatcher {
    /// Starts `command` (a shell line, its output appended to `log`) in the background, its pid in
    /// `pidFile`, with a watcher that runs `stop` (a shell line, `$server` its pid) once the test
    /// process or the server has ended; and then, with `removing`, removes that folder once the test
    /// process has ended, unless a later start wrote another pid (its own watcher removes it then).
    public static func launch(_ command: String, log: String, pidFile: String, stop: String, removing folder: String?) throws {
        var script = """
            \(command) >>'\(log)' 2>&1 &
            server=$!
            echo $server > '\(pidFile)'
            while kill -0 \(getpid()) 2>/dev/null && kill -0 $server 2>/dev/null; do sleep 0.5; done
            \(stop) 2>/dev/null; wait $server

            """
        if let folder {
            script += """
                while kill -0 \(getpid()) 2>/dev/null; do sleep 0.5; done
                [ -e '\(pidFile)' ] && [ "$(cat '\(pidFile)')" != "$server" ] || rm -rf '\(folder)'

                """
        }
        _ = try ChildProcess("/bin/sh", ["-c", script])
    }
}
