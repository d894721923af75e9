import Foundation
import Testing
import TestSupport

@testable import JournalKit

@Suite(.onTestThreads) struct StoreOpeningTests {
    @Test func createsFolderAndFileWithPrivatePermissionsInWALMode() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/new/journal.db"
            let store = try await JournalStore(path: path)
            _ = try await store.add(NewDrink(kind: "espresso", caffeineMg: 64, consumedAt: Timestamp(milliseconds: 0)))
            #expect(try permissions(folder + "/new") == 0o700)
            #expect(try permissions(path) == 0o600)
            #expect(try permissions(path + "-wal") == 0o600)
            let check = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 100)
            #expect(try check.queryText("PRAGMA journal_mode") == "wal")
        }
    }

    @Test func runsSQLiteOnItsOwnThread() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db")
            #expect(await store.isOnStoreThread())
        }
    }

    @Test func appliesEveryMigrationFileInOrder() async throws {
        // The folder is the source of truth: every file there must be embedded, in order, and applied.
        let migrations = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Migrations").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: migrations.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(!files.isEmpty)
        #expect(Migration.embedded.map(\.name) == files)
        #expect(Migration.embedded.map(\.version) == Array(1...Int64(files.count)))
        for migration in Migration.embedded {
            let text = try String(contentsOf: migrations.appendingPathComponent(migration.name), encoding: .utf8)
            #expect(migration.sql == text, "the embedded copy of \(migration.name) is stale")
        }
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db")
            #expect(try queryRows("PRAGMA user_version", on: store.path) == [[.integer(Int64(files.count))]])
        }
    }

    @Test func refusesANewerSchemaWithoutTouchingIt() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/future.db"
            let future = try SQLiteConnection(path: path, busyTimeoutMilliseconds: 100)
            try future.executeScript("CREATE TABLE from_the_future (x); PRAGMA user_version = 999;")
            let before = fileBytes(path)
            await #expect(throws: JournalFileError.newerSchema(path: path, version: 999, supported: Migration.latestVersion)) {
                _ = try await JournalStore(path: path)
            }
            #expect(fileBytes(path) == before)
            #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        }
    }

    @Test func refusesAFileThatIsNotADatabaseWithoutTouchingIt() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/notes.txt"
            let text = Data(String(repeating: "my shopping list\n", count: 200).utf8)
            try text.write(to: URL(fileURLWithPath: path))
            await #expect(throws: JournalFileError.notADatabase(path: path)) {
                _ = try await JournalStore(path: path)
            }
            #expect(fileBytes(path) == text)
        }
    }

    @Test func keepsItsDeviceIDAcrossOpens() async throws {
        try await withTemporaryDirectory { folder in
            let first = try await JournalStore(path: folder + "/j.db").deviceID
            let second = try await JournalStore(path: folder + "/j.db").deviceID
            let other = try await JournalStore(path: folder + "/other.db").deviceID
            #expect(first == second)
            #expect(first != other)
            #expect(UUIDText.canonical(first.rawValue) == first.rawValue)
        }
    }

    @Test func twoConnectionsWritingAtOnceBothSucceed() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/j.db"
            let a = try await JournalStore(path: path)
            let b = try await JournalStore(path: path)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for store in [a, b] {
                    group.addTask {
                        for minute in 0..<50 {
                            _ = try await store.add(NewDrink(
                                kind: "espresso", caffeineMg: 64, consumedAt: Timestamp(milliseconds: Int64(minute) * 60_000)))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let all = try await a.changes(since: nil, limit: 1000)
            #expect(all.records.count == 100)
            #expect(Set(all.records.map(\.sequence)) == Set(1...100))
            #expect(Set(all.records.map(\.clock)).count == 100)
        }
    }
}
