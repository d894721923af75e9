import Crypto
import FoundationEssentials
import JournalKit

import Glibc

/// A device's own key pairs: X25519, to receive a hub key wrapped for it alone, and Ed25519, to sign
/// what it writes to the hub, so that holding the hub's key is not enough to speak as this device.
/// Made at the device's first sync with a hub, kept in a 0600 file beside the hub's key
/// (`JournalPaths.deviceKeys(of:)`), and never leaving the machine: its card carries the public halves.
public struct DeviceKeys: Sendable {
    let agreement: Curve25519.KeyAgreement.PrivateKey
    let signing: Curve25519.Signing.PrivateKey
    /// The file they are kept in, for messages; empty for keys kept nowhere.
    let path: String

    /// A new pair of each, to be kept at `path`.
    public init(path: String = "") {
        agreement = Curve25519.KeyAgreement.PrivateKey()
        signing = Curve25519.Signing.PrivateKey()
        self.path = path
    }

    /// The public halves, as a card carries them.
    var publicKeys: DevicePublicKeys {
        DevicePublicKeys(agreement: Array(agreement.publicKey.rawRepresentation), signing: Array(signing.publicKey.rawRepresentation))
    }

    private static let header = "journal device keys v1"

    /// The file's text: a header line, then each private key in hex on a line of its own.
    var fileText: String {
        "\(Self.header)\nagreement \(Hex.encode(agreement.rawRepresentation))\nsigning \(Hex.encode(signing.rawRepresentation))\n"
    }

    init(fileText text: String, source: String) throws(SyncError) {
        let lines = text.split(separator: "\n").map { $0.trimmingSpaces }
        func key(_ label: String) -> [UInt8]? {
            guard let line = lines.first(where: { $0.hasPrefix(label + " ") }) else { return nil }
            return Hex.decode(Array(line.dropFirst(label.count + 1).utf8)).flatMap { $0.count == 32 ? $0 : nil }
        }
        guard lines.first == Self.header, let agreement = key("agreement"), let signing = key("signing"),
            let agreementKey = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: agreement),
            let signingKey = try? Curve25519.Signing.PrivateKey(rawRepresentation: signing)
        else { throw SyncError.malformedDeviceKeys(path: source) }
        self.agreement = agreementKey
        self.signing = signingKey
        path = source
    }

    /// The keys in the file at `path`, made and written there first when there is none. Refused when
    /// the file is not its owner's alone (`PrivateFile`) or does not hold keys.
    public static func loadOrMake(at path: String) throws -> DeviceKeys {
        if let keys = try load(from: path) { return keys }
        let keys = DeviceKeys(path: path)
        do { try PrivateFile.write(Array(keys.fileText.utf8), to: path, replacing: false) } catch let error as FileSystem.Failure
            where error.code == EEXIST
        {
            // Another process (the daemon, a `journal sync`) made them a moment ago: theirs are the keys.
            if let made = try load(from: path) { return made }
            throw error
        }
        return keys
    }

    /// The keys in the file at `path`, when there is one: never made.
    public static func existing(at path: String) throws -> DeviceKeys? { try load(from: path) }

    private static func load(from path: String) throws -> DeviceKeys? {
        guard let bytes = try PrivateFile.read(
            path, limit: 4096, what: "this device's keys", exposure: "anyone who reads it can sign as this device")
        else { return nil }
        return try DeviceKeys(fileText: String(decoding: bytes, as: UTF8.self), source: path)
    }
}

/// The public halves of a device's keys, as its card carries them and other devices keep them.
public struct DevicePublicKeys: Sendable, Equatable, Hashable {
    /// X25519: what hub keys are wrapped for.
    public let agreement: [UInt8]
    /// Ed25519: what checks the device's signatures.
    public let signing: [UInt8]

    public init(agreement: [UInt8], signing: [UInt8]) {
        self.agreement = agreement
        self.signing = signing
    }
}

extension DeviceCard {
    /// The public keys the card shows: a device is known by those it first showed.
    var publicKeys: DevicePublicKeys { DevicePublicKeys(agreement: agreementKey, signing: signingKey) }
}
