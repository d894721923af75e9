import Foundation
import Testing
import TestSupport

@testable import JournalKit

/// The WAL stays short in steady use: every process that opens the journal reads the whole WAL to
/// rebuild its index, so a WAL that only grows makes every command slower.
@Suite(.onTestThreads) struct WriteAheadLogTests {
    /// The most the WAL may hold in steady use: the bound, and what one more write adds past it.
    static let ceilingBytes = (Int(SQLiteConnection.walBoundFrames) + 40) * (4096 + 24)

    func walSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
    }

    @Test func manyCommandsEachWritingOnceLeaveAShortWAL() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/j.db"
            var largest = 0
            // Each add on a connection of its own, closed after, as each `journal add` is a process.
            for minute in 0..<400 {
                let store = try await JournalStore(path: path)
                _ = try await store.add(espresso(at: Timestamp(milliseconds: 1_795_262_400_000 + Int64(minute) * 60_000)))
                largest = max(largest, walSize(path))
            }
            #expect(largest <= Self.ceilingBytes, "the WAL grew to \(largest) bytes")
            #expect(try await JournalStore(path: path).drinks().count == 400)
        }
    }

    @Test func aLargeWriteIsCheckpointedRightAway() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/j.db"
            let store = try await JournalStore(path: path)
            let drinks = (0..<20_000).map { espresso(at: Timestamp(milliseconds: 1_700_000_000_000 + Int64($0) * 60_000)) }
            _ = try await store.importDrinks(drinks.map { Drink(id: DrinkID(rawValue: UUIDText.random()), kind: $0.kind, caffeineMg: $0.caffeineMg, consumedAt: $0.consumedAt, note: nil) })
            #expect(walSize(path) == 0, "\(walSize(path)) bytes left in the WAL after one large write")
        }
    }

    /// A reader holding an old snapshot (a long `journal sql`, a `sqlite3` shell in a transaction)
    /// keeps the WAL from being truncated, but never makes a writer wait; once it is gone, the next
    /// write past the bound truncates the WAL.
    @Test func aReaderOnAnOldSnapshotNeverMakesAWriterWait() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/j.db"
            let store = try await JournalStore(path: path)
            _ = try await store.add(espresso(at: Timestamp(milliseconds: 1_795_262_400_000)))
            let reader = try SQLiteConnection(path: path, readOnly: true, busyTimeoutMilliseconds: 5000)
            try reader.run("BEGIN")
            _ = try reader.queryInteger("SELECT count(*) FROM drinks")
            // A checkpoint that waited for the reader would hold its write for the whole busy timeout
            // (15 s) at every write once the reader keeps the WAL past its bound: most of these 299.
            // A loaded machine can make one write that long (22 s once, in a full run on two cores;
            // 10 s once from SQLite's own retries for the WAL index's read lock), never a handful:
            // count them, not the longest.
            let timeout = Duration.milliseconds(Int64(JournalFile.busyTimeoutMilliseconds))
            var waited: [Duration] = []
            for minute in 1..<300 {
                let start = ContinuousClock.now
                _ = try await store.add(espresso(at: Timestamp(milliseconds: 1_795_262_400_000 + Int64(minute) * 60_000)))
                let took = ContinuousClock.now - start
                if took >= timeout { waited.append(took) }
            }
            #expect(waited.count <= 3, "\(waited.count) writes took the busy timeout or longer: \(waited)")
            #expect(walSize(path) > Self.ceilingBytes, "the reader's snapshot kept nothing in the WAL?")
            try reader.run("COMMIT")
            for minute in 300..<320 {
                _ = try await store.add(espresso(at: Timestamp(milliseconds: 1_795_262_400_000 + Int64(minute) * 60_000)))
            }
            #expect(walSize(path) <= Self.ceilingBytes, "\(walSize(path)) bytes still in the WAL after the reader left")
        }
    }
}
