import Synchronization

/// At most `limit` requests of this process in flight to one server; the others wait their turn, for
/// as long as that takes, each bounded by its own deadline once it goes. AsyncHTTPClient's own queue
/// for a connection gives up after its connect timeout, and a process with dozens of hubs on one
/// server at once (a whole test run on a loaded machine: 10 to 20 tests, on every server) passed it,
/// each failing as a hub out of reach. A daemon sends one request at a time and never waits here.
final class RequestGate: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var inFlight = 0
        var waiters: [Waiter] = []
        var nextID = 0
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) { self.limit = limit }

    /// The gate of `server` ("host:port"), one for the process.
    static func of(_ server: String, limit: Int) -> RequestGate {
        gates.withLock { gates in
            if let gate = gates[server] { return gate }
            let gate = RequestGate(limit: limit)
            gates[server] = gate
            return gate
        }
    }

    private static let gates = Mutex<[String: RequestGate]>([:])

    /// Waits for a turn; throws `CancellationError` when the task is cancelled first.
    func enter() async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case admitted, cancelled, queued }
                let cancelled = Task.isCancelled
                let outcome = state.withLock { state -> Outcome in
                    if cancelled { return .cancelled }
                    if state.inFlight < limit {
                        state.inFlight += 1
                        return .admitted
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .queued
                }
                switch outcome {
                case .admitted: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .queued: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Ends a turn: the next waiter's begins.
    func leave() {
        let next = state.withLock { state -> Waiter? in
            guard !state.waiters.isEmpty else {
                state.inFlight -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.continuation.resume()
    }
}
