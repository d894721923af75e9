import JournalKit

/// What opening cards came to, beyond what is remembered of them at once.
struct CardsOpened {
    /// Cards that verify, with their fingerprints: kept at the sync's end.
    var taken: [DeviceID: (card: DeviceCard, fingerprint: String)] = [:]
    var refused: [DeviceID: String] = [:]
    /// Cards that did not open for want of a key, to try again with keys the others give (at most
    /// `SyncEngine.cardsInHand`; the rest wait for the next sync).
    var waiting: [HubListing<DeviceID>] = []

    mutating func merge(_ other: CardsOpened) {
        taken.merge(other.taken) { _, new in new }
        refused.merge(other.refused) { _, new in new }
        waiting += other.waiting.prefix(max(0, SyncEngine.cardsInHand - waiting.count))
        for device in other.taken.keys { refused[device] = nil }
    }
}

/// What opening one card came to.
enum CardOpening {
    /// It verifies: kept at the sync's end.
    case taken(DeviceCard)
    /// The card kept already, or an older one of it: nothing to keep.
    case unchanged
    /// It is not a card of this hub's, or not its device's.
    case refused(String)
    /// Sealed under a key this device does not hold: read again once it holds more.
    case waiting(String)
}
