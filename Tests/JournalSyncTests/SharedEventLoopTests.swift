import EventLoopExecution
import Foundation
import Testing
import TestSupport

@testable import JournalKit
@testable import JournalSync
@testable import PostgresHub

/// The daemon's arrangement (`SyncDaemon.loopExecutor`): its journal store on an event loop of its own,
/// and the PostgreSQL hub it opens from there, so a ring is read, synced and written on one thread.
@Suite(.onTestThreads) struct SharedEventLoopTests {
    @Test func aHubOpenedFromAStoresEventLoopConnectsOnItAndSyncsThere() async throws {
        try await withTemporaryDirectory { folder in
            let (_, _, uri) = try PostgresServer.shared.makeDatabase(passwordFileIn: folder)
            let place = try PostgresPlace(connectionString: uri)
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", place: place, key: key)
            let executor = try #require(EventLoopExecutor.ownThread())
            let b = try await Task(executorPreference: executor) {
                try await Machine.make(folder, name: "b", place: place, key: key, invitedBy: a, executor: executor)
            }.value
            #expect(await b.store.isOnStoreThread())
            let hub = try #require(b.engine.hub as? PostgresHub)
            #expect(hub.executor.loop === executor.loop)

            // SQLite's work and the connection's replies take turns on the one thread.
            _ = try await a.store.add(drink(note: "one thread"))
            try await a.sync()
            let report = try await Task(executorPreference: executor) { try await b.sync() }.value
            #expect(report.received == 1)
            #expect(Set(try await b.state().compactMap(\.drink.note)) == ["one thread"])
            await a.engine.close()
            await b.engine.close()
        }
    }
}
