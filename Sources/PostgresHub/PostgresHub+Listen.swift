import JournalKit
import JournalSync
import NIOCore
import PostgresNIO
import Synchronization

extension PostgresHub {
    /// Listens on the hub's channel until the task is cancelled (then it returns) or the connection is
    /// lost (then it throws), giving `sign` `.listening` once the server listens and `.rang` for each
    /// notification of another device than `ownDevice` (after noting its time). Once listening, it
    /// rings itself from another connection (`DoorbellTest`) and gives `.unheard` while that ring does
    /// not come back.
    ///
    /// It listens on the hub's own connection, the one syncs query on: a daemon holds one connection
    /// to the server, not two, and a server's connection slots are what many devices run out of
    /// first. PostgreSQL delivers a notification between a session's statements, so syncing delays
    /// one by a statement at most.
    ///
    /// PostgresNIO's listener can wait forever on a connection that closed under it (as a query does,
    /// see `PostgresLink.run`): so the listening runs in a task of its own, and the connection's end
    /// ends this call whether or not that task ever returns.
    public nonisolated func listen(
        ownDevice: DeviceID, clock: any JournalClock, sign: @escaping @Sendable (DoorbellSign) -> Void
    ) async throws {
        let link = try await connected()
        let location = connector.location
        let lost = SyncError.hubUnavailable(hub: location.uri, reason: "the connection to \(location.server) was lost")
        guard !link.isClosed else { throw lost }
        let ended = ListenEnd()
        let test = DoorbellTest(eventLoop: link.channel.eventLoop)
        let listener = Task(executorPreference: executor) {
            do {
                try await link.connection.listen(on: ServerSchema.channel) { notifications in
                    sign(.listening)
                    let tester = Task(executorPreference: self.executor) { await self.test(test, on: link, sign: sign) }
                    defer { tester.cancel() }
                    for try await notification in notifications {
                        let payload = notification.payload
                        // This device's own changes, and any device's test rings, are no news.
                        guard !test.heard(payload), payload != ownDevice.rawValue, !DoorbellTest.isTest(payload) else { continue }
                        await self.rang(at: clock.now())
                        // A segment's ring names its device; any other payload (a key epoch's) names no log.
                        sign(.rang(device: DeviceID(canonical: payload)))
                    }
                }
                ended.finish(nil)
            } catch {
                ended.finish(ServerFailure.calling(error, location: location))
            }
        }
        link.channel.closeFuture.whenComplete { _ in ended.finish(lost) }
        let failure = await withTaskCancellationHandler {
            await ended.wait()
        } onCancel: {
            ended.finish(nil)
        }
        // Cancelling the listener ends its LISTEN (PostgresNIO sends UNLISTEN); the connection stays,
        // the hub's, for its syncs.
        listener.cancel()
        if let failure { throw failure }
    }

    /// Rings the doorbell as another device would, until the ring comes back: at once, then (while it
    /// does not) every `DoorbellTest.pollInterval`, each time giving `.unheard` so the daemon syncs.
    ///
    /// A ring that came back while a call of the hub's own was under way on `link` (a sync) proves
    /// nothing: behind a pooler in transaction mode, the server connection that listens is lent to
    /// whichever client runs a statement, and a ring sent then reaches the listener because its sync
    /// held that connection. It is rung again once `DoorbellTest.wait` is over.
    private nonisolated func test(_ test: DoorbellTest, on link: PostgresLink, sign: @escaping @Sendable (DoorbellSign) -> Void) async {
        var unheard = false
        while !Task.isCancelled {
            let token = test.next()
            let before = link.activity
            // A ring that cannot be sent is one that does not come back.
            try? await ringFromAnotherConnection(token)
            if await test.cameBack(token, within: DoorbellTest.wait) {
                guard before.idle(until: link.activity) else {
                    await test.pause(DoorbellTest.wait)
                    continue
                }
                if unheard { sign(.heardAgain) }
                return
            }
            guard !Task.isCancelled else { return }
            unheard = true
            sign(.unheard(pollingEvery: DoorbellTest.pollInterval))
            await test.pause(DoorbellTest.pollInterval - DoorbellTest.wait)
        }
    }

    /// One NOTIFY of `payload` on a connection of its own, closed after.
    nonisolated func ringFromAnotherConnection(_ payload: String) async throws {
        let other = try await connector.connect()
        do {
            try await other.run { connection in
                try await connection.query("SELECT pg_notify('journal_hub', \(payload))", logger: PostgresConnector.quiet)
            }
        } catch {
            await other.close()
            throw error
        }
        await other.close()
    }

    /// Whether notifications reach this hub's connection: a test ring from another connection, waited
    /// for at most `DoorbellTest.wait`. For `sync status`. The server's answer to LISTEN, and the ring,
    /// are calls like any other: a server that does not answer them in time fails this, rather than
    /// pass for a pooler that keeps notifications to itself.
    func notificationsArrive() async throws -> Bool {
        let link = try await connected()
        let test = DoorbellTest(eventLoop: link.channel.eventLoop)
        let token = test.next()
        // True once the server listens; false when it refused to (the listening ended without).
        let listening = FirstOutcome<Bool>()
        let listener = Task(executorPreference: executor) {
            try? await link.connection.listen(on: ServerSchema.channel) { notifications in
                listening.finish(.success(true))
                for try await notification in notifications where test.heard(notification.payload) { return }
            }
            listening.finish(.success(false))
        }
        defer { listener.cancel() }
        guard try await link.run({ _ in try await listening.wait() }) else { return true }
        try await ringFromAnotherConnection(token)
        return await test.cameBack(token, within: DoorbellTest.wait)
    }
}

/// How a listening ended, the first time it is told: the listener returned or threw, the connection
/// closed, or the caller was cancelled.
private final class ListenEnd: Sendable {
    private enum State {
        case running
        case waiting(CheckedContinuation<(any Error)?, Never>)
        case ended((any Error)?)
    }

    private let state = Mutex<State>(.running)

    func finish(_ failure: (any Error)?) {
        let waiter: CheckedContinuation<(any Error)?, Never>? = state.withLock { state in
            switch state {
            case .running:
                state = .ended(failure)
                return nil
            case .waiting(let continuation):
                state = .ended(failure)
                return continuation
            case .ended:
                return nil
            }
        }
        waiter?.resume(returning: failure)
    }

    func wait() async -> (any Error)? {
        await withCheckedContinuation { continuation in
            let done: (any Error)?? = state.withLock { state in
                if case .ended(let failure) = state { return .some(failure) }
                state = .waiting(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}
