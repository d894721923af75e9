import Foundation
import JournalSync
import Testing
import TestSupport

/// `sync status` tells how to start journal-syncd the way this machine can: the systemd unit where
/// systemd runs the system, else in the background of a login.
@Suite(.onTestThreads) struct DaemonStartAdviceTests {
    @Test func theAdviceFollowsWhetherSystemdRunsTheSystem() async throws {
        try await withTemporaryDirectory { folder in
            let marker = folder + "/run/systemd/system"
            #expect(DaemonStartAdvice.here(systemdBootedAt: marker) == .background)
            #expect(DaemonStartAdvice.background.sentence.contains("run journal-syncd &"))
            try FileManager.default.createDirectory(atPath: marker, withIntermediateDirectories: true)
            #expect(DaemonStartAdvice.here(systemdBootedAt: marker) == .systemdUnit)
            #expect(DaemonStartAdvice.systemdUnit.sentence.contains("systemctl --user enable --now journal-sync"))
        }
    }
}
