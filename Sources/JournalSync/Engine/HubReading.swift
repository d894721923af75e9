import JournalKit

/// What a reading of the hub's cards and key epoch records found, to be kept at the sync's end.
struct HubReading: Sendable {
    /// Other devices' cards read now that verify: later than the ones kept, or the same found anew.
    var cards: [DeviceCard] = []
    /// Cards refused now, by device, with why.
    var refused: [DeviceID: String] = [:]
    /// What each card taken now came to, to remember with the cards kept.
    var cardItems: [HubItem] = []
    /// Why the cards could not be listed or read, when they could not: the records were read all the
    /// same, with the cards kept.
    var unreachable: CardsUnreachable?
}

/// What a key epoch chain was worked out from: the records (which never change once kept), the signing
/// keys of their makers' cards, the epoch this device's key was taken for, and that key's check.
struct ChainMemo: Equatable, Sendable {
    let records: Set<KeyEpoch>
    let signers: [DeviceID: [UInt8]]
    let ownEpoch: KeyEpoch
    let key: String
}
