import JournalKit

/// Which cards that verify a reading keeps: those of devices kept already, of devices a member vouches
/// for or a record gives the key to (`named`), and those sealed under a key that admits now.
struct CardKeeping {
    let known: Set<DeviceID>
    var named: Set<DeviceID>
    var admitting: Set<KeyEpoch>

    func allows(_ card: DeviceCard) -> Bool {
        known.contains(card.device) || named.contains(card.device)
            || card.sealedEpoch.flatMap(KeyEpoch.init(text:)).map(admitting.contains) == true
    }
}
