import Crypto
import FoundationEssentials
import JournalKit

/// Seals a segment with ChaCha20-Poly1305 under the sync key. The associated data binds the format,
/// the device and the position range, taken by the reader from where the segment sits, so a segment
/// cannot be replayed at other positions, swapped with another, or moved into another device's log.
///
/// Layout: "JSEG", one format byte, then nonce (12 bytes), ciphertext and tag (16 bytes).
enum SegmentSeal {
    static let magic: [UInt8] = Array("JSEG".utf8)

    static func seal(_ plaintext: [UInt8], format: UInt8, key: SyncKey, device: DeviceID, name: SegmentName) throws -> [UInt8] {
        let box = try ChaChaPoly.seal(
            plaintext, using: key.key, authenticating: associatedData(format: format, device: device, name: name))
        return magic + [format] + Array(box.combined)
    }

    /// The plaintext and its format, or why it cannot be had: not a segment, a newer format, or not
    /// authentic (wrong key, tampered, truncated, moved).
    static func open(_ sealed: [UInt8], key: SyncKey, device: DeviceID, name: SegmentName) throws(SegmentContentError) -> (format: UInt8, plaintext: [UInt8]) {
        guard sealed.count >= magic.count + 1 + 12 + 16, Array(sealed.prefix(4)) == magic else {
            throw SegmentContentError("it is not a journal segment (truncated or overwritten)")
        }
        let format = sealed[4]
        guard format >= 1, format <= SegmentCodec.format else {
            throw SegmentContentError("it was written by a newer journal (segment format \(format)); update journal here")
        }
        do {
            let box = try ChaChaPoly.SealedBox(combined: sealed[5...])
            let opened = try ChaChaPoly.open(
                box, using: key.key, authenticating: associatedData(format: format, device: device, name: name))
            return (format, Array(opened))
        } catch {
            throw SegmentContentError("it does not authenticate: it was altered, truncated, renamed or moved")
        }
    }

    static func associatedData(format: UInt8, device: DeviceID, name: SegmentName) -> [UInt8] {
        Array("journal-hub segment format \(format) device \(device.rawValue) positions \(name.first)-\(name.last)".utf8)
    }
}
