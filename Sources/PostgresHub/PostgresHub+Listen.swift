import JournalKit
import JournalSync
import NIOCore
import PostgresNIO
import Synchronization

extension PostgresHub {
    /// Listens on the hub's channel until the task is cancelled (then it returns) or the connection is
    /// lost (then it throws). `listening` is called once the server listens; `rang` for each
    /// notification of another device than `ownDevice`, after noting its time.
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
        ownDevice: DeviceID, clock: any JournalClock, listening: @escaping @Sendable () -> Void,
        rang: @escaping @Sendable () -> Void
    ) async throws {
        let link = try await connected()
        let location = connector.location
        let lost = SyncError.hubUnavailable(hub: location.uri, reason: "the connection to \(location.server) was lost")
        guard !link.isClosed else { throw lost }
        let ended = ListenEnd()
        let listener = Task {
            do {
                try await link.connection.listen(on: ServerSchema.channel) { notifications in
                    listening()
                    for try await notification in notifications where notification.payload != ownDevice.rawValue {
                        await self.rang(at: clock.now())
                        rang()
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
