import Crypto
import FoundationEssentials
import JournalKit

/// Seals a segment with ChaCha20-Poly1305 under a key epoch's key, and signs it with its device's
/// Ed25519 key. The associated data binds the format, the hub, the device and the position range,
/// taken by the reader from where the segment sits, so a segment cannot be replayed at other
/// positions, swapped with another, or moved into another device's log or hub; the signature makes a
/// member holding the key unable to write into another device's log.
///
/// Layout from format 3: "JSEG", the format byte, the key epoch (4-byte number, 16-byte id), nonce
/// (12 bytes), ciphertext and tag (16 bytes), then the 64-byte signature over all that. Formats 1
/// and 2 (journals before signing): "JSEG", the format byte, nonce, ciphertext and tag, under the
/// hub's first key; read while their device's card does not say it signs from their positions on.
enum SegmentSeal {
    static let magic: [UInt8] = Array("JSEG".utf8)
    /// The first format that is signed and names its key epoch.
    static let signedFormat: UInt8 = 3
    private static let signatureBytes = 64

    /// A signed segment of `device`'s log in `format` (3 or later), sealed under `key`, the key of `epoch`.
    static func seal(
        _ plaintext: [UInt8], format: UInt8, epoch: KeyEpoch, key: SyncKey, signer: DeviceKeys, hubID: HubID, device: DeviceID,
        name: SegmentName
    ) throws -> [UInt8] {
        precondition(format >= signedFormat, "a signed segment is format \(signedFormat) or later")
        let header = magic + [format] + epoch.bytes
        let place = Place(format: format, hubID: hubID, device: device, name: name)
        let box = try ChaChaPoly.seal(plaintext, using: key.key, authenticating: place.associatedData + header)
        let body = header + Array(box.combined)
        return body + Array(try signer.signing.signature(for: place.signed(body)))
    }

    /// An unsigned segment as journals before format 3 wrote it: what tests of upgrades and of older
    /// devices' logs put on a hub.
    static func sealUnsigned(_ plaintext: [UInt8], format: UInt8, key: SyncKey, device: DeviceID, name: SegmentName) throws -> [UInt8] {
        let box = try ChaChaPoly.seal(plaintext, using: key.key, authenticating: legacyAssociatedData(format: format, device: device, name: name))
        return magic + [format] + Array(box.combined)
    }

    /// The plaintext and its format, or why it cannot be had: not a segment, a newer format, sealed
    /// under an epoch this device has no key of, not signed by its device (or unsigned where its device
    /// signs), or not authentic (wrong key, tampered, truncated, moved). A signed segment of a device
    /// whose card has not arrived yet waits for it (`SegmentContentError.Cause.awaitingCard`).
    static func open(
        _ sealed: [UInt8], keys: (KeyEpoch) -> SyncKey?, author: SegmentAuthor, hubID: HubID, device: DeviceID, name: SegmentName
    ) throws(SegmentContentError) -> (format: UInt8, plaintext: [UInt8]) {
        guard sealed.count >= magic.count + 1 + 12 + 16, Array(sealed.prefix(4)) == magic else {
            throw SegmentContentError("it is not a journal segment (truncated or overwritten)")
        }
        let format = sealed[4]
        guard format >= 1, format <= SegmentCodec.format else {
            throw SegmentContentError("it was written by a newer journal (segment format \(format)); update journal on this machine")
        }
        guard format >= signedFormat else {
            if let signedFrom = author.signedFrom, name.last >= signedFrom {
                throw SegmentContentError(
                    "it is not signed, and its device signs everything from position \(signedFrom) on: it was not written by that device")
            }
            guard let key = keys(.first) else { throw SegmentContentError("it is sealed under the hub's first key, which this device does not have") }
            // Opened first: what does not open is damage or junk, and does not hold a log back as unvouched.
            let plaintext = try decrypt(sealed[5...], key: key, associatedData: legacyAssociatedData(format: format, device: device, name: name))
            if let through = author.takenThrough, name.last > through {
                throw SegmentContentError(
                    "it is not signed, and since the hub's key first changed an unsigned segment is taken only as far as a member vouched "
                        + "for it (position \(through) of this device): anyone who held the first key could have written it", cause: .unvouched)
            }
            return (format, plaintext)
        }
        let headerBytes = magic.count + 1 + 20
        guard sealed.count >= headerBytes + 12 + 16 + signatureBytes, let epoch = KeyEpoch(bytes: sealed[5..<headerBytes]) else {
            throw SegmentContentError("it is not a journal segment (truncated or overwritten)")
        }
        let body = sealed[..<(sealed.count - signatureBytes)]
        let place = Place(format: format, hubID: hubID, device: device, name: name)
        guard let key = keys(epoch) else {
            throw SegmentContentError("it is sealed under key epoch \(epoch), whose key this device does not have")
        }
        // Opened before its signature is checked, so that damage reads as damage and a forgery as one.
        let plaintext = try decrypt(body[headerBytes...], key: key, associatedData: place.associatedData + Array(sealed[..<headerBytes]))
        guard let signer = author.signingKey else {
            throw SegmentContentError("it is signed by a device whose card has not reached this hub yet", cause: .awaitingCard)
        }
        guard signer.isValidSignature(sealed[(sealed.count - signatureBytes)...], for: place.signed(Array(body))) else {
            throw SegmentContentError(
                "its signature does not verify: it was not written by the device whose log holds it, or its signature was damaged")
        }
        return (format, plaintext)
    }

    private static func decrypt(_ combined: ArraySlice<UInt8>, key: SyncKey, associatedData: [UInt8]) throws(SegmentContentError) -> [UInt8] {
        do {
            return Array(try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: combined), using: key.key, authenticating: associatedData))
        } catch {
            throw SegmentContentError("it does not authenticate: it was altered, truncated, renamed or moved")
        }
    }

    private static func legacyAssociatedData(format: UInt8, device: DeviceID, name: SegmentName) -> [UInt8] {
        Array("journal-hub segment format \(format) device \(device.rawValue) positions \(name.first)-\(name.last)".utf8)
    }

    /// Where a signed segment sits: what its seal and signature bind it to.
    private struct Place {
        let format: UInt8
        let hubID: HubID
        let device: DeviceID
        let name: SegmentName

        private var label: String { "journal-hub segment format \(format) hub \(hubID.rawValue) device \(device.rawValue) positions \(name.first)-\(name.last)" }
        var associatedData: [UInt8] { Array(label.utf8) }
        func signed(_ body: [UInt8]) -> [UInt8] { Array((label + " signed\n").utf8) + body }
    }
}

/// What a reader knows of the device whose log a segment is in, from its card: the key that checks
/// its signatures, and the position from which it signs everything. A device no card is known of
/// yet (one on a journal from before cards) has neither: its unsigned segments are read as before.
struct SegmentAuthor {
    var signingKey: Curve25519.Signing.PublicKey?
    var signedFrom: Int64?
    /// How far its log is taken whatever comes after, unsigned segments included (`EpochChain.takenThrough`):
    /// nil for without limit.
    var takenThrough: Int64?

    init(signingKey: Curve25519.Signing.PublicKey?, signedFrom: Int64?) {
        self.signingKey = signingKey
        self.signedFrom = signedFrom
    }

    init(card: DeviceCard?) {
        signingKey = card.flatMap { try? Curve25519.Signing.PublicKey(rawRepresentation: $0.signingKey) }
        signedFrom = card?.signedFrom
    }
}
