import JournalKit

/// The epochs this device's key may be the key of, in order.
struct OwnEpochCandidates {
    let candidates: [KeyEpoch]

    /// The first candidate, or the first epoch when there is none.
    var epoch: KeyEpoch { candidates.first ?? .first }

    /// The first candidate whose record the chain `make` builds for it finds valid, with that chain;
    /// with none valid, the first (its record gone or altered is then said as such).
    func settled(_ make: (KeyEpoch) -> EpochChain) -> (KeyEpoch, EpochChain) {
        let first = make(epoch)
        guard candidates.count > 1, first.record(of: epoch) == nil else { return (epoch, first) }
        for candidate in candidates.dropFirst() {
            let tried = make(candidate)
            if tried.record(of: candidate) != nil { return (candidate, tried) }
        }
        return (epoch, first)
    }
}
