import Foundation
import JournalKit
import Testing
import TestSupport

@testable import FolderHub
@testable import JournalSync

/// What `sync status` tells a person to paste about a folder hub is safe to paste: a link another
/// member of a shared hub put there is named as they named it, and that name runs nothing.
@Suite(.onTestThreads) struct ExposureAdviceTests {
    @Test func theRemovalOfALinkSomeoneNamedRemovesItAndRunsNothing() async throws {
        try await withTemporaryDirectory { folder in
            let hub = try FolderHub.create(folder: folder + "/my 'hub'", key: SyncKey())
            // No "/" can be in a name: the commands go home (the shell's HOME is the test's folder) first.
            let name = "x'$(cd;touch pwned)'`cd;touch pwned`"
            let link = hub.location + "/journal-hub-v1/devices/" + name
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/etc/passwd")
            let warning = try #require(hub.describe().warnings.first { $0.contains("symbolic link") })
            let command = try #require(warning.range(of: "(rm ").map { String(warning[$0.upperBound...].dropLast(2)) })
            let removed = try ProcessRunner.run("/bin/sh", ["-c", "rm " + command], environment: ["HOME": folder], stdin: nil)
            #expect(removed.status == 0, "\(removed.stderr)")
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == nil, "the link is still there")
            #expect(!FileManager.default.fileExists(atPath: folder + "/pwned"), "pasting the advice ran a command")
        }
    }
}
