import Foundation
import Testing
import TestSupport

/// A hub kept in step by a copy tool (Dropbox, OneDrive, a USB stick, `cp -a`) that does not pass on
/// deletions and renames the copies it cannot settle: weather, not an attack. Sync goes on, says once
/// what it found, and never calls the journal a copy.
@Suite(.onTestThreads) struct CopyToolTests {
    @Test func segmentsACopyToolBringsBackOrRenamesAreOwnedNotAlarming() async throws {
        try await withTemporaryDirectory { folder in
            let (left, right) = (folder + "/left", folder + "/right")
            for hub in [left, right] { try FileManager.default.createDirectory(atPath: hub, withIntermediateDirectories: true) }
            let a = JournalCLI(home: folder + "/a")
            let b = JournalCLI(home: folder + "/b")
            #expect(try a.run("sync", "init", "--hub", left).status == 0)
            try CopyTool.copy(left, right)
            let key = try a.run("sync", "key").stdout
            #expect(try b.run(["sync", "init", "--hub", right, "--key-file", "-"], stdin: key).status == 0)
            // Each add is a segment of its own, and a's compaction replaces pairs of them; the tool brings
            // the replaced ones back from the other copy.
            for minute in 0..<6 {
                try a.run("add", "espresso", "--at", "8:\(10 + minute)")
                let synced = try a.run("sync")
                #expect(synced.status == 0, "\(minute): \(synced.stdout)\(synced.stderr)")
                try CopyTool.copy(left, right)
                try CopyTool.copy(right, left)
                #expect(try b.run("sync").status == 0)
                try CopyTool.copy(right, left)
            }
            let log = left + "/journal-hub-v1/devices/" + (try a.deviceID())
            let segments = try FileManager.default.contentsOfDirectory(atPath: log).filter { $0.hasSuffix(".seg") }.sorted()
            #expect(segments.count > 2, "the tool brought replaced segments back: \(segments)")
            // A copy the tool renamed because it saw two versions of one name.
            let copied = log + "/" + segments[0].dropLast(4) + " (conflicted copy 2026-11-21).seg"
            try FileManager.default.copyItem(atPath: log + "/" + segments[0], toPath: copied)

            let found = try a.run("sync")
            #expect(found.status == 0, "\(found.stdout)\(found.stderr)")
            #expect(!found.stdout.contains("copied"), "\(found.stdout)")
            #expect(found.stdout.contains("older copy of this device's own segment"), "\(found.stdout)")
            #expect(found.stdout.contains("a copy tool's copy of this device's segment \(segments[0])"), "\(found.stdout)")
            // Said once.
            let again = try a.run("sync")
            #expect(again.stdout == "Nothing to sync: this journal and the hub agree.\n", "\(again.stdout)")
            #expect(try a.run("add", "tea", "--at", "9:00").status == 0)
            #expect(try a.run("sync").status == 0)
            try CopyTool.copy(left, right)
            #expect(try b.run("sync").status == 0)
            let onA = try #require(try a.json("list", "--all", "--json") as? [[String: Any]]).compactMap { $0["id"] as? String }
            let onB = try #require(try b.json("list", "--all", "--json") as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(onA.count == 7 && Set(onA) == Set(onB))
            let status = try #require(try a.json("sync", "status", "--json") as? [String: Any])
            #expect((status["last_sync"] as? [String: Any])?["result"] as? String == "ok")
        }
    }
}

/// A copy tool that does not pass on deletions: every file in one tree that the other lacks is copied
/// there, as a tool restores what it saw go (temporaries, dot-named, are its own business).
enum CopyTool {
    static func copy(_ source: String, _ target: String) throws {
        let files = FileManager.default
        guard let walk = files.enumerator(atPath: source) else { return }
        while let relative = walk.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            let from = source + "/" + relative, to = target + "/" + relative
            var isFolder: ObjCBool = false
            guard !name.hasPrefix("."), files.fileExists(atPath: from, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                try files.createDirectory(atPath: to, withIntermediateDirectories: true)
            } else if !files.fileExists(atPath: to) {
                try files.copyItem(atPath: from, toPath: to)
            }
        }
    }
}
