/// How long to wait before retrying after failed syncs: doubling from `initial` up to `maximum`, with
/// up to a quarter of random jitter so machines that failed together do not retry together.
struct Backoff: Sendable {
    static let initial: Duration = .seconds(2)
    /// The longest wait between syncs that fail.
    static let maximum: Duration = .seconds(30 * 60)

    /// The first wait, and the longest this backoff grows to.
    var initial: Duration = Backoff.initial
    var maximum: Duration = Backoff.maximum
    private(set) var failures = 0

    /// The delay after one more failure.
    mutating func fail<G: RandomNumberGenerator>(using generator: inout G) -> Duration {
        failures += 1
        let doublings = min(failures - 1, 20)
        let base = min(initial * (1 << doublings), maximum)
        let jitter = base * Double.random(in: 0...0.25, using: &generator)
        return min(base + jitter, maximum)
    }

    mutating func succeed() { failures = 0 }
}
