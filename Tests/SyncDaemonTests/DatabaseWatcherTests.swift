import Foundation
import Testing
import TestSupport

@testable import journal_syncd

/// The journal's watcher, as the loop uses it around a sync: the daemon's own writes wake nothing,
/// and one hint afterwards stands for whatever another process wrote meanwhile.
@Suite(.onTestThreads) struct DatabaseWatcherTests {
    @Test func writesDuringASyncAreNotWatchedAndOneHintFollows() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/journal.db"
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            let watcher = try DatabaseWatcher(databasePath: path)
            // The journal's files only: a test's own temporary files are no part of it.
            var batches = watcher.inotify.events(keeping: { $0.name.hasPrefix("journal.db") }).makeAsyncIterator()
            let events = ChangeEvents()
            var wakes = events.makeAsyncIterator()
            func append() throws {
                let file = try #require(FileHandle(forWritingAtPath: path))
                try file.seekToEnd()
                try file.write(contentsOf: Data([1]))
                try file.close()
            }

            try await watcher.ignoringWrites(sendingTo: events) {
                try append()
                // Made, moved or deleted files are still watched: the first event seen is this one,
                // with nothing before it for the write.
                let made = open(path + "-wal", O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
                #expect(made >= 0)
                close(made)
                let first = await batches.next() ?? []
                #expect(first.map(\.name) == ["journal.db-wal"])
            }
            #expect(await wakes.next()?.reasons == .database)

            // Watched again after.
            try append()
            let after = await batches.next() ?? []
            #expect(after.map(\.name).contains("journal.db"))
        }
    }
}
