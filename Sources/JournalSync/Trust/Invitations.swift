import Crypto
import FoundationEssentials
import JournalKit

/// Invitations: how a member admits the machine a person joins with the key it printed, so that every
/// device knows who admitted whom (`Membership`). `journal sync key` prints, with the hub's key, a
/// secret of its own (`seedBytes`), and the device that printed it keeps only its public key and a
/// claim of it. The joining device signs its own keys with the secret (`DeviceCard.Admission`, on its
/// card); the device that printed it sees the proof, and vouches for the first device that shows it.
/// The joining device vouches for the device whose card shows the claim (`claim`), which only a holder
/// of the secret can tell from another device's. Nobody else holds the secret: a member cannot pass a
/// device of its own off as invited by another, nor as the one that invited another, and revoking a
/// member shuts out the devices only it admitted.
enum Invitations {
    /// The secret's length: 120 bits, on top of the hub's key the same paper carries.
    static let seedBytes = 15

    /// A new invitation: the secret to print, and its public key, for the device that printed it.
    static func make() -> (seed: [UInt8], publicKey: [UInt8]) {
        let seed = SymmetricKey(size: .bits128).withUnsafeBytes { Array($0.prefix(seedBytes)) }
        return (seed, Array(signingKey(seed: seed).publicKey.rawRepresentation))
    }

    /// The signing key a secret stands for.
    static func signingKey(seed: [UInt8]) -> Curve25519.Signing.PrivateKey {
        let material = Array(SHA256.hash(data: Array("journal-hub invitation key v1\0".utf8) + seed))
        // 32 bytes of a hash are a valid Ed25519 seed: this cannot fail.
        return try! Curve25519.Signing.PrivateKey(rawRepresentation: material)
    }

    /// What the joining device keeps of the secret `seed`: enough to tell the claim of the device that
    /// printed it, nothing that signs.
    static func tag(seed: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: Array("journal-hub invitation tag v1\0".utf8) + seed)) }

    /// The claim `device`'s card makes of the invitation whose tag is `tag`: bound to that device, so
    /// another cannot show it as its own.
    static func claim(tag: [UInt8], device: DeviceID) -> [UInt8] {
        let message = Array("journal-hub invitation claim v1 device \(device.rawValue)".utf8)
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: tag)).prefix(16))
    }

    /// The proof that `device`, whose keys are `keys`, joined the hub `hubID` with the invitation whose
    /// secret is `seed`.
    static func admission(seed: [UInt8], hubID: HubID, device: DeviceID, keys: DevicePublicKeys) throws -> DeviceCard.Admission {
        let key = signingKey(seed: seed)
        let signature = try key.signature(for: message(hubID: hubID, device: device, keys: keys))
        return DeviceCard.Admission(invitationKey: Array(key.publicKey.rawRepresentation), signature: Array(signature))
    }

    /// True when `card`'s device shows a proof, made with the invitation's secret, of its own keys on
    /// this hub: it is the device the invitation was used for, or one its holder made.
    static func verifies(_ admission: DeviceCard.Admission, of card: DeviceCard, hubID: HubID) -> Bool {
        guard PublicKeyCheck.signingProblem(admission.invitationKey) == nil,
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: admission.invitationKey)
        else { return false }
        return key.isValidSignature(admission.signature, for: message(hubID: hubID, device: card.device, keys: card.publicKeys))
    }

    private static func message(hubID: HubID, device: DeviceID, keys: DevicePublicKeys) -> [UInt8] {
        Array("journal-hub admission v1 hub \(hubID.rawValue) device \(device.rawValue)\n".utf8) + keys.agreement + keys.signing
    }
}
