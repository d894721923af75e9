import CLinux
import Foundation
import Testing
import TestSupport

/// The daemon lets go of its code's pages once started (`journal_release_code_pages`): what it has
/// resident is what it runs when idle, not all that start-up touched.
@Suite(.onTestThreads) struct CodePagesTests {
    /// Resident kilobytes of this program's own code (its executable mappings of its own file).
    static func residentCode() throws -> Int {
        let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var total = 0
        var inCode = false
        for line in try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), fields.count >= 2 {
                inCode = fields[1].contains("x") && fields.last.map(String.init) == program
            } else if inCode, fields.first == "Rss:", fields.count >= 2, let kib = Int(fields[1]) {
                total += kib
            }
        }
        return total
    }

    @Test func theCodeStartUpRanIsLetGoAndRunsAgainWhenCalled() throws {
        let before = try Self.residentCode()
        let released = journal_release_code_pages()
        let after = try Self.residentCode()
        #expect(released > 0)
        #expect(before > 1024, "the test program's code was \(before) KiB resident")
        // Other tests run meanwhile and bring some of it back, far from all.
        #expect(after < before / 2, "\(before) KiB resident before, \(after) KiB after")
        // What was let go runs again: this very test goes on.
        #expect(try Self.residentCode() > 0)
    }
}
