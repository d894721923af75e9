import Crypto
import FoundationEssentials
import JournalKit

/// A device card as it lies on the hub: signed by its device's Ed25519 key, then sealed with
/// ChaCha20-Poly1305 under the hub's key, so that only a member can write one, and only the device
/// itself one that verifies against the keys it first showed.
///
/// Layout from format 2: "JCRD", one format byte, the key epoch it is sealed under (`KeyEpoch.bytes`),
/// then nonce (12 bytes), ciphertext and tag (16 bytes); format 1 (before key epochs) has no epoch and
/// is sealed under the hub's first key. The plaintext is the 64-byte signature, then the card's JSON,
/// whose `epoch` is the number of the epoch it is sealed under. The signature covers the hub id, the
/// device id and the JSON; the associated data binds the format, the epoch, the hub and the device,
/// so a card cannot be moved to another device's place or another hub.
public enum CardSeal {
    static let magic: [UInt8] = Array("JCRD".utf8)
    static let format: UInt8 = 2
    /// The most a card's file can be; a name of 40 characters and two keys need about 600 bytes.
    public static let maximumBytes = 16 * 1024

    /// `card` signed by `keys` and sealed under `key`, the key of `epoch` (which the card names).
    static func seal(_ card: DeviceCard, keys: DeviceKeys, epoch: KeyEpoch, key: SyncKey, hubID: HubID) throws -> [UInt8] {
        var card = card
        card.epoch = Int64(epoch.number)
        let json = Array(try JSONEncoder().encode(card))
        let signature = try keys.signing.signature(for: signed(json, hubID: hubID, device: card.device))
        let header = magic + [format] + epoch.bytes
        let box = try ChaChaPoly.seal(
            Array(signature) + json, using: key.key, authenticating: associatedData(format: format, hubID: hubID, device: card.device) + header)
        return header + Array(box.combined)
    }

    /// The card in `device`'s place, or why it is refused: not a card, from a newer journal, not
    /// sealed with the hub's key, not that device's, not signed by the keys it names, or naming the
    /// device in a way a name cannot be.
    /// The epoch a sealed card names: the first for a card from before key epochs; nil when the bytes
    /// are no card this journal reads (`open` says why).
    static func epoch(of sealed: [UInt8]) -> KeyEpoch? {
        guard sealed.count >= magic.count + 1, Array(sealed.prefix(4)) == magic else { return nil }
        if sealed[4] == 1 { return .first }
        return sealed[4] == format ? KeyEpoch(bytes: sealed.dropFirst(5).prefix(20)) : nil
    }

    static func open(_ sealed: [UInt8], keys: (KeyEpoch) -> SyncKey?, hubID: HubID, device: DeviceID) throws(CardError) -> DeviceCard {
        guard sealed.count <= maximumBytes else { throw CardError("it is \(sealed.count) bytes, more than a card can be") }
        guard sealed.count >= magic.count + 1 + 12 + 16 + 64, Array(sealed.prefix(4)) == magic else {
            throw CardError("it is not a device card (truncated or overwritten)")
        }
        guard sealed[4] <= format, sealed[4] >= 1 else {
            throw CardError("it was written by a newer journal (card format \(sealed[4])); update journal on this machine")
        }
        let headerBytes = sealed[4] == 1 ? 5 : 5 + 20
        guard sealed.count >= headerBytes + 12 + 16 + 64, let epoch = epoch(of: sealed) else {
            throw CardError("it is not a device card (truncated or overwritten)")
        }
        guard let key = keys(epoch) else { throw CardError("it is sealed under key epoch \(epoch), whose key this device does not have") }
        let plaintext: [UInt8]
        do {
            let box = try ChaChaPoly.SealedBox(combined: sealed[headerBytes...])
            let header = sealed[4] == 1 ? [] : Array(sealed[..<headerBytes])
            plaintext = Array(try ChaChaPoly.open(
                box, using: key.key, authenticating: associatedData(format: sealed[4], hubID: hubID, device: device) + header))
        } catch {
            throw CardError("it does not open with the hub's key: not written by a member, or altered or moved")
        }
        guard plaintext.count > 64 else { throw CardError("it holds no card") }
        let signature = plaintext[..<64]
        let json = Array(plaintext[64...])
        guard let card = try? JSONDecoder().decode(DeviceCard.self, from: Data(json)) else { throw CardError("its content is malformed") }
        guard card.device == device else {
            throw CardError("it names another device (\(TerminalText.quoted(card.device.rawValue))) than the one whose place it is in")
        }
        // Before the signature: a signing key of small order would let anyone make one that verifies.
        if let problem = card.publicKeys.problem { throw CardError("it cannot be a device's card: \(problem)") }
        guard let signer = try? Curve25519.Signing.PublicKey(rawRepresentation: card.signingKey),
            signer.isValidSignature(signature, for: signed(json, hubID: hubID, device: device))
        else { throw CardError("its signature does not verify against the keys it names") }
        guard DeviceName(card: card.name) != nil else { throw CardError("its name is not one a device can have") }
        guard card.epoch == Int64(epoch.number) else { throw CardError("it names another key epoch than the one it is sealed under") }
        guard (card.signedFrom ?? 1) >= 1 else { throw CardError("it says its device signs from a position before the first") }
        guard [card.writtenAt, card.publishedAt, card.syncedAt].allSatisfy({ $0.map(Self.plausible.contains) ?? true }) else {
            throw CardError("it holds a time before 1970 or after 2999")
        }
        return card
    }

    /// The times a card can hold: any other would overflow the arithmetic of "how long ago".
    static let plausible = Timestamp(milliseconds: 0)...Timestamp(milliseconds: 32_503_680_000_000)

    private static func signed(_ json: [UInt8], hubID: HubID, device: DeviceID) -> [UInt8] {
        Array("journal-hub card v1 hub \(hubID.rawValue) device \(device.rawValue)\n".utf8) + json
    }

    private static func associatedData(format: UInt8, hubID: HubID, device: DeviceID) -> [UInt8] {
        Array("journal-hub card format \(format) hub \(hubID.rawValue) device \(device.rawValue)".utf8)
    }
}

/// Why a device card on the hub was not taken.
struct CardError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
