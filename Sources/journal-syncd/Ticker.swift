/// Sends `reason` every `interval` on `clock`, until cancelled: the periodic safety-net sync, and the
/// watchdog's heartbeat. The clock is injected so tests never wait for real time.
struct Ticker<C: Clock>: Sendable where C.Duration == Duration {
    let interval: Duration
    let reason: ChangeReasons
    let clock: C

    func feed(_ events: ChangeEvents) async {
        while !Task.isCancelled {
            do { try await clock.sleep(for: interval) } catch { return }
            events.send(reason)
        }
    }
}
