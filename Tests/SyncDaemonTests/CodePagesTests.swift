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

    /// Resident kilobytes of all file-backed pages: one short read, where smaps takes long enough for
    /// the tests running beside this one to bring much of the code back.
    static func residentFileBacked() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("RssFile:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    @Test func theCodeStartUpRanIsLetGoAndRunsAgainWhenCalled() throws {
        let code = try Self.residentCode()
        #expect(code > 1024, "the test program's code was \(code) KiB resident")
        // Other tests run meanwhile and bring some of it back in the moment between, on a busy machine
        // sometimes more than half: one of a few tries shows most of it let go.
        var drops: [(before: Int, after: Int)] = []
        for _ in 0..<5 {
            let before = try Self.residentFileBacked()
            #expect(journal_release_code_pages() > 0)
            drops.append((before, try Self.residentFileBacked()))
            if before - drops[drops.count - 1].after > code / 2 { break }
        }
        #expect(drops.contains { $0.before - $0.after > code / 2 }, "\(code) KiB of code resident; file-backed before and after: \(drops)")
        // What was let go runs again: this very test goes on.
        #expect(try Self.residentCode() > 0)
    }
}
