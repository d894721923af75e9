/// How long to wait before retrying after failed syncs: doubling from `initial` up to `maximum`, with
/// up to a quarter of random jitter so machines that failed together do not retry together.
struct Backoff: Sendable {
    static let initial: Duration = .seconds(2)
    static let maximum: Duration = .seconds(30 * 60)

    private(set) var failures = 0

    /// The delay after one more failure.
    mutating func fail<G: RandomNumberGenerator>(using generator: inout G) -> Duration {
        failures += 1
        let doublings = min(failures - 1, 20)
        let base = min(Backoff.initial * (1 << doublings), Backoff.maximum)
        let jitter = base * Double.random(in: 0...0.25, using: &generator)
        return min(base + jitter, Backoff.maximum)
    }

    mutating func succeed() { failures = 0 }
}
