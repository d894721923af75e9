import Testing
import TestSupport

@testable import JournalKit

/// What the daemon reads when a file event hints at a write: `data_version`, and whether another
/// connection's write is under way, whose commit the number does not show yet.
@Suite(.onTestThreads) struct DataVersionReadingTests {
    @Test func aWriteUnderWayIsSaidUntilItsCommitIsInTheNumber() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/j.db"
            let store = try await JournalStore(path: path)
            let before = try await store.dataVersionReading()
            #expect(!before.anotherConnectionWasWriting)

            // Another process's transaction, written but not committed.
            let other = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 15_000)
            try other.run("BEGIN IMMEDIATE")
            try other.run("CREATE TABLE scratch (n)")
            // Past the wait for it (a long import, say).
            let during = try await store.dataVersionReading()
            #expect(during == DataVersionReading(value: before.value, anotherConnectionWasWriting: true))

            try other.run("COMMIT")
            let after = try await store.dataVersionReading()
            #expect(!after.anotherConnectionWasWriting && after.value != before.value)
        }
    }

    @Test func aCommandsCommitOnItsWayIsWaitedForAndSeen() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/j.db"
            let store = try await JournalStore(path: path)
            let before = try await store.dataVersion()
            let other = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 15_000)
            try other.run("BEGIN IMMEDIATE")
            try other.run("CREATE TABLE scratch (n)")
            // The reading starts while the write is under way, and ends once it commits. It may wait a
            // minute here: on a loaded machine this thread can be held up past the daemon's second.
            let reading = Task { try await store.dataVersionReading(waitingUpTo: 60_000) }
            try await Task.sleep(for: .milliseconds(50))
            try other.run("COMMIT")
            let read = try await reading.value
            #expect(!read.anotherConnectionWasWriting && read.value != before)

        }
    }

    @Test func itsOwnWritesAreNoOtherWriter() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db")
            let before = try await store.dataVersionReading()
            _ = try await store.add(espresso(at: Timestamp(milliseconds: 1_795_262_400_000)))
            #expect(try await store.dataVersionReading() == before)
        }
    }
}
