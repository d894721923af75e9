import Crypto
import FoundationEssentials
import JournalKit

/// The start of a key epoch, as a device that rotated the hub's key (or revoked a device) left it on
/// the hub: the new key wrapped (HPKE) for each remaining device's X25519 key, the parent epoch's key
/// sealed under the new one (so whoever holds a key reads every older epoch through it), the devices
/// revoked in it with the last position accepted of each, and the key check a printed key is matched
/// against. Signed by its maker's Ed25519 key, which it names, and proved made by a holder of the
/// parent epoch's key (an HMAC under that key): so a device reads a record before it can read its
/// maker's card (sealed under the new key), and someone who can write into the hub's folder but holds
/// no key cannot make one. The rest is readable by the hub, as device ids and times are already.
///
/// Layout: "JEPO", one format byte, the 64-byte signature, the 32-byte proof, then the JSON both
/// cover (with the hub id and the epoch, so a record cannot be moved to another hub or epoch).
public struct EpochRecord: Sendable, Equatable {
    public let epoch: KeyEpoch
    public let parent: KeyEpoch
    public let maker: DeviceID
    /// The maker's Ed25519 public key: the one its card shows, where that card is known.
    let makerSigningKey: [UInt8]
    public let madeAt: Timestamp
    /// Devices shut out from this epoch on, each with the last position of its log still accepted.
    public let revoked: [Revocation]
    /// The new key, HPKE-sealed for each device it reaches: the devices the epoch keeps.
    let wrapped: [DeviceID: WrappedKey]
    /// The parent epoch's key, sealed with ChaCha20-Poly1305 under this epoch's key.
    let parentKey: [UInt8]
    /// `SyncKey.check` of this epoch's key: what tells a printed key's epoch.
    public let keyCheck: String
    /// How far the maker had applied each device's log: what it vouches every device takes of that log
    /// whatever comes after, a device left out of the new key and unsigned segments (journals from before
    /// signing, sealed under the first key) included. From the hub's first record on, an unsigned
    /// segment is taken only as far as a valid record vouches for it, as everyone who held the first key
    /// could write one; a device that is no member now is read as far.
    let taken: [DeviceID: Int64]

    /// A device shut out, and how far its log is still taken.
    public struct Revocation: Sendable, Equatable {
        public let device: DeviceID
        /// The last position of its log accepted: what the revoking device had applied of it.
        public let through: Int64
    }

    /// The epoch key as HPKE sealed it for one device, and that device's Ed25519 key as its card
    /// showed the maker: what a record made beside a revocation is checked against (`keeps`).
    struct WrappedKey: Sendable, Equatable {
        let encapsulated: [UInt8]
        let sealed: [UInt8]
        let signing: [UInt8]
    }

    static let magic: [UInt8] = Array("JEPO".utf8)
    static let format: UInt8 = 1
    /// The most a record can be: a wrapped key per device takes about 310 bytes of JSON, for up to
    /// `maximumReached` devices, and what it vouches for of journals from before signing about 60 each.
    public static let maximumBytes = 128 * 1024
    /// The most devices a record reaches: more than any person has, and few enough for `maximumBytes`
    /// (a server's table refuses a larger record; 500, as it was, did not fit).
    public static let maximumReached = 360
    /// The most devices whose logs a record vouches for (`taken`).
    static let maximumTaken = 200
    private static let signatureBytes = 64
    private static let proofBytes = 32
    private static let suite = HPKE.Ciphersuite.Curve25519_SHA256_ChachaPoly

    /// The devices the new key is wrapped for.
    public var reaches: [DeviceID] { wrapped.keys.sorted() }

    /// True when this epoch keeps `device`, signing with `signingKey`: the new key is wrapped for it,
    /// and the maker knew it by that key.
    func keeps(_ device: DeviceID, signingWith signingKey: [UInt8]) -> Bool { wrapped[device]?.signing == signingKey }

    /// Makes the record of a new epoch, the child of `parent`, and its key: wrapped for every device
    /// of `members` (this device among them), revoking `revoked`.
    static func make(
        parent: KeyEpoch, parentKey: SyncKey, members: [DeviceID: DevicePublicKeys], revoked: [Revocation], maker: DeviceKeys,
        makerID: DeviceID, at now: Timestamp, hubID: HubID, taken: [DeviceID: Int64] = [:], id chosen: [UInt8]? = nil,
        key chosenKey: SyncKey? = nil
    ) throws -> (record: EpochRecord, sealed: [UInt8], key: SyncKey) {
        // Random, unless a test chooses them (to order a record before another, or forge one).
        let id = chosen ?? SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        let epoch = KeyEpoch(number: parent.number &+ 1, id: id)
        let key = chosenKey ?? SyncKey()
        let keyBytes = key.key.withUnsafeBytes { Array($0) }
        var wrapped: [DeviceID: WrappedKey] = [:]
        for (device, keys) in members {
            // RFC 7748 6.1: a key of small order makes the wrapping secret one anyone can compute.
            if let problem = keys.problem { throw CardError("the keys of \(device) cannot be wrapped for: \(problem)") }
            let recipient = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: keys.agreement)
            var sender = try HPKE.Sender(recipientKey: recipient, ciphersuite: suite, info: wrapInfo(hubID: hubID, epoch: epoch, device: device))
            wrapped[device] = WrappedKey(
                encapsulated: Array(sender.encapsulatedKey), sealed: Array(try sender.seal(keyBytes)), signing: keys.signing)
        }
        let parentSealed = Array(try ChaChaPoly.seal(
            parentKey.key.withUnsafeBytes { Array($0) }, using: key.key, authenticating: parentAssociatedData(hubID: hubID, epoch: epoch)).combined)
        let record = EpochRecord(
            epoch: epoch, parent: parent, maker: makerID, makerSigningKey: Array(maker.signing.publicKey.rawRepresentation), madeAt: now,
            revoked: revoked, wrapped: wrapped, parentKey: parentSealed, keyCheck: key.check, taken: taken)
        let json = Array(try JSONEncoder().encode(Body(record)))
        let message = signed(json, hubID: hubID)
        let signature = Array(try maker.signing.signature(for: message))
        let proof = Array(HMAC<SHA256>.authenticationCode(for: message, using: parentKey.key))
        let sealed = magic + [format] + signature + proof + json
        guard sealed.count <= maximumBytes else {
            throw CardError("the record would be \(sealed.count) bytes, more than a key epoch's record can be")
        }
        return (record, sealed, key)
    }

    /// The record in `bytes`, found on the hub as `epoch`, with its signature unchecked (its maker's
    /// card may not be known yet): `verify` checks it. Refused when it is not a record, from a newer
    /// journal, or not the epoch it is found as.
    static func parse(_ bytes: [UInt8], as epoch: KeyEpoch, hubID: HubID) throws(CardError) -> (record: EpochRecord, signed: Signed) {
        guard bytes.count <= maximumBytes else { throw CardError("it is \(bytes.count) bytes, more than a key epoch's record can be") }
        guard bytes.count > magic.count + 1 + signatureBytes + proofBytes, Array(bytes.prefix(4)) == magic else {
            throw CardError("it is not a key epoch's record (truncated or overwritten)")
        }
        guard bytes[4] == format else {
            throw CardError("it was written by a newer journal (key epoch format \(bytes[4])); update journal on this machine")
        }
        let signature = Array(bytes[5..<(5 + signatureBytes)])
        let proof = Array(bytes[(5 + signatureBytes)..<(5 + signatureBytes + proofBytes)])
        let json = Array(bytes[(5 + signatureBytes + proofBytes)...])
        guard let body = try? JSONDecoder().decode(Body.self, from: Data(json)), let record = body.record else {
            throw CardError("its content is malformed")
        }
        guard record.epoch == epoch else { throw CardError("it names another key epoch than the one it is filed as") }
        guard record.epoch.number >= 1, record.parent.number == record.epoch.number - 1 else {
            throw CardError("its parent epoch is not the one before it")
        }
        guard CardSeal.plausible.contains(record.madeAt) else { throw CardError("it holds a time before 1970 or after 2999") }
        guard !record.revoked.contains(where: { $0.device == record.maker }) else { throw CardError("it revokes the device that made it") }
        return (record, Signed(signature: signature, proof: proof, message: signed(json, hubID: hubID)))
    }

    /// The signature and proof of a record, and what they cover.
    struct Signed: Sendable {
        let signature: [UInt8]
        let proof: [UInt8]
        let message: [UInt8]

        /// True when the record was made by a holder of `parentKey`, its parent epoch's key.
        func isProved(by parentKey: SyncKey) -> Bool {
            HMAC<SHA256>.isValidAuthenticationCode(proof, authenticating: message, using: parentKey.key)
        }

        /// True when the record was signed by the device whose signing key is `key`.
        func verifies(by key: [UInt8]) -> Bool {
            guard PublicKeyCheck.signingProblem(key) == nil else { return false }
            return (try? Curve25519.Signing.PublicKey(rawRepresentation: key))?.isValidSignature(signature, for: message) ?? false
        }
    }

    /// This epoch's key, when the record wraps it for `device` (whose keys are `keys`) and it is the
    /// key the record's check names.
    func unwrap(for device: DeviceID, keys: DeviceKeys, hubID: HubID) -> SyncKey? {
        guard let wrap = wrapped[device],
            var recipient = try? HPKE.Recipient(
                privateKey: keys.agreement, ciphersuite: Self.suite, info: Self.wrapInfo(hubID: hubID, epoch: epoch, device: device),
                encapsulatedKey: Data(wrap.encapsulated)),
            let bytes = try? recipient.open(wrap.sealed), bytes.count == 32
        else { return nil }
        let key = SyncKey(bytes: Array(bytes))
        return key.check == keyCheck ? key : nil
    }

    /// The parent epoch's key, given this epoch's.
    func parentKey(given key: SyncKey, hubID: HubID) -> SyncKey? {
        guard let box = try? ChaChaPoly.SealedBox(combined: parentKey),
            let bytes = try? ChaChaPoly.open(box, using: key.key, authenticating: Self.parentAssociatedData(hubID: hubID, epoch: epoch)),
            bytes.count == 32
        else { return nil }
        return SyncKey(bytes: Array(bytes))
    }

    private static func signed(_ json: [UInt8], hubID: HubID) -> [UInt8] {
        Array("journal-hub key epoch v1 hub \(hubID.rawValue)\n".utf8) + json
    }

    private static func wrapInfo(hubID: HubID, epoch: KeyEpoch, device: DeviceID) -> Data {
        Data("journal-hub epoch key v1 hub \(hubID.rawValue) epoch \(epoch.number)-\(Hex.encode(epoch.id)) device \(device.rawValue)".utf8)
    }

    private static func parentAssociatedData(hubID: HubID, epoch: KeyEpoch) -> [UInt8] {
        Array("journal-hub parent key v1 hub \(hubID.rawValue) epoch \(epoch.number)-\(Hex.encode(epoch.id))".utf8)
    }

    /// The record as its JSON says it.
    private struct Body: Codable {
        let number: UInt32
        let id: String
        let parentNumber: UInt32
        let parentID: String
        let maker: String
        let makerKey: String
        let madeAt: Int64
        let revoked: [Revoked]
        let keys: [Wrap]
        let parentKey: String
        let keyCheck: String
        /// Absent from records of journals before it: they vouch for no log.
        let taken: [Revoked]?

        struct Revoked: Codable {
            let device: String
            let through: Int64
        }

        struct Wrap: Codable {
            let device: String
            let encapsulated: String
            let sealed: String
            let signing: String
        }

        enum CodingKeys: String, CodingKey {
            case number, id, maker, revoked, keys
            case parentNumber = "parent_number"
            case parentID = "parent_id"
            case madeAt = "made_at"
            case makerKey = "maker_key"
            case parentKey = "parent_key"
            case keyCheck = "key_check"
            case taken
        }

        init(_ record: EpochRecord) {
            number = record.epoch.number
            id = Hex.encode(record.epoch.id)
            parentNumber = record.parent.number
            parentID = Hex.encode(record.parent.id)
            maker = record.maker.rawValue
            makerKey = Hex.encode(record.makerSigningKey)
            madeAt = record.madeAt.milliseconds
            revoked = record.revoked.map { Revoked(device: $0.device.rawValue, through: $0.through) }
            keys = record.wrapped.sorted { $0.key < $1.key }.map {
                Wrap(
                    device: $0.key.rawValue, encapsulated: Hex.encode($0.value.encapsulated), sealed: Hex.encode($0.value.sealed),
                    signing: Hex.encode($0.value.signing))
            }
            parentKey = Hex.encode(record.parentKey)
            keyCheck = record.keyCheck
            taken = record.taken.isEmpty ? nil : record.taken.sorted { $0.key < $1.key }.map { Revoked(device: $0.key.rawValue, through: $0.value) }
        }

        /// The record, or nil when a field is not what it can be.
        var record: EpochRecord? {
            guard let id = Hex.decode(Array(id.utf8)), id.count == 16, let parentID = Hex.decode(Array(parentID.utf8)), parentID.count == 16,
                let maker = DeviceID(canonical: maker), let parentKey = Hex.decode(Array(parentKey.utf8)),
                let makerKey = Hex.decode(Array(makerKey.utf8)), makerKey.count == 32,
                keyCheck.utf8.count == 32, Hex.decode(Array(keyCheck.utf8)) != nil
            else { return nil }
            var wrapped: [DeviceID: WrappedKey] = [:]
            guard keys.count <= EpochRecord.maximumReached else { return nil }
            for wrap in keys {
                guard let device = DeviceID(canonical: wrap.device), let encapsulated = Hex.decode(Array(wrap.encapsulated.utf8)),
                    let sealed = Hex.decode(Array(wrap.sealed.utf8)), let signing = Hex.decode(Array(wrap.signing.utf8)), signing.count == 32
                else { return nil }
                wrapped[device] = WrappedKey(encapsulated: encapsulated, sealed: sealed, signing: signing)
            }
            var revocations: [Revocation] = []
            for entry in revoked {
                guard let device = DeviceID(canonical: entry.device), entry.through >= 0 else { return nil }
                revocations.append(Revocation(device: device, through: entry.through))
            }
            var vouched: [DeviceID: Int64] = [:]
            guard (taken?.count ?? 0) <= EpochRecord.maximumTaken else { return nil }
            for entry in taken ?? [] {
                guard let device = DeviceID(canonical: entry.device), entry.through >= 0 else { return nil }
                vouched[device] = entry.through
            }
            return EpochRecord(
                epoch: KeyEpoch(number: number, id: id), parent: KeyEpoch(number: parentNumber, id: parentID), maker: maker,
                makerSigningKey: makerKey, madeAt: Timestamp(milliseconds: madeAt), revoked: revocations, wrapped: wrapped, parentKey: parentKey,
                keyCheck: keyCheck, taken: vouched)
        }
    }
}
