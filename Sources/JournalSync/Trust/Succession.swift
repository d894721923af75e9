import Crypto
import JournalKit

/// How a device hands over to the device its journal becomes (`journal sync new-device`: a copied or
/// moved database takes an id of its own): the new device's card carries the old device's signature
/// over the hub, both ids and the new device's keys, which only the old device's key file could make.
/// A member that vouched for the old device, not revoked, vouches for the new one: no advice costs a
/// device its vouch. A revoked device's hand-over is no one's.
enum Succession {
    /// The proof that the device `old` (its keys `oldKeys`) hands over to `device`, whose keys are `keys`.
    static func proof(by oldKeys: DeviceKeys, old: DeviceID, to device: DeviceID, keys: DevicePublicKeys, hubID: HubID) throws -> DeviceCard.Succession {
        let signature = try oldKeys.signing.signature(for: message(hubID: hubID, old: old, device: device, keys: keys))
        return DeviceCard.Succession(device: old, signature: Array(signature))
    }

    /// True when `card`'s hand-over was signed by the old device's key, `oldSigningKey`, as its card showed it.
    static func verifies(_ succession: DeviceCard.Succession, of card: DeviceCard, oldSigningKey: [UInt8], hubID: HubID) -> Bool {
        guard PublicKeyCheck.signingProblem(oldSigningKey) == nil,
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: oldSigningKey)
        else { return false }
        return key.isValidSignature(succession.signature, for: message(hubID: hubID, old: succession.device, device: card.device, keys: card.publicKeys))
    }

    private static func message(hubID: HubID, old: DeviceID, device: DeviceID, keys: DevicePublicKeys) -> [UInt8] {
        Array("journal-hub succession v1 hub \(hubID.rawValue) from \(old.rawValue) to \(device.rawValue)\n".utf8) + keys.agreement + keys.signing
    }
}
