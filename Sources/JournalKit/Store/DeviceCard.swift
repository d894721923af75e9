/// What a device says of itself on the hub (sealed and signed by the sync code): its name, public
/// keys, the key epoch it last read, and when it last published and synced. Kept in the journal for
/// `journal sync devices`, this device's own included.
public struct DeviceCard: Sendable, Equatable, Codable {
    public var device: DeviceID
    public var name: String
    /// X25519 public key: what hub keys are wrapped for.
    public var agreementKey: [UInt8]
    /// Ed25519 public key: what checks the device's signatures.
    public var signingKey: [UInt8]
    public var epoch: Int64
    /// When the device wrote this card: of two cards of a device, the later is kept.
    public var writtenAt: Timestamp
    /// When the device last published a segment, if ever.
    public var publishedAt: Timestamp?
    /// When the device last finished a sync, if ever.
    public var syncedAt: Timestamp?
    /// The first position from which every segment of the device is signed: nil on a card of a journal
    /// from before signing. A device's segments before it, written unsigned, are read as before.
    public var signedFrom: Int64?
    /// The devices this device vouches for, each by the signing key it knows it by: whom it takes to be
    /// members of the hub (docs/DESIGN.md, "Who is a member"). nil on a card of a journal from before
    /// vouching.
    public var vouches: [Vouch]?
    /// The invitation this device joined with, and its proof: nil for a device that joined with the key
    /// alone.
    public var admission: Admission?
    /// The claims of the invitations this device printed, newest first: by one, the device that joined
    /// with it knows this device printed it, as only a holder of the printed secret can tell which claim
    /// is whose (`Invitations.claim`).
    public var invitations: [[UInt8]]?
    /// The device this one took over from (`journal sync new-device`), with the proof, signed by that
    /// device's key, that it handed over to this one: its members vouch for this one in its place.
    public var succeeds: Succession?
    /// Not what the card says, but where this journal found it: the key epoch it was sealed under
    /// ("NUMBER-IDHEX"), nil when not known (this device's own, or a card kept by an earlier journal).
    public var sealedEpoch: String?

    /// A device this one took over from, and the signature of that device's key over the hand-over.
    public struct Succession: Sendable, Equatable, Codable {
        public var device: DeviceID
        public var signature: [UInt8]

        public init(device: DeviceID, signature: [UInt8]) {
            self.device = device
            self.signature = signature
        }

        enum CodingKeys: String, CodingKey {
            case device, signature
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let id = try container.decode(String.self, forKey: .device)
            guard UUIDText.isCanonical(id) else {
                throw DecodingError.dataCorruptedError(forKey: .device, in: container, debugDescription: "not a device id")
            }
            device = DeviceID(rawValue: id)
            signature = try HexField.decode(container, .signature)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(device.rawValue, forKey: .device)
            try container.encode(Hex.encode(signature), forKey: .signature)
        }
    }

    /// A device vouched for, by its id and the signing key its card showed.
    public struct Vouch: Sendable, Equatable, Hashable, Codable {
        public var device: DeviceID
        public var signingKey: [UInt8]

        public init(device: DeviceID, signingKey: [UInt8]) {
            self.device = device
            self.signingKey = signingKey
        }

        enum CodingKeys: String, CodingKey {
            case device
            case signingKey = "signing_key"
        }

        // The key in hexadecimal: a card holds up to a hundred vouches within its 16 KiB.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let id = try container.decode(String.self, forKey: .device)
            guard UUIDText.isCanonical(id) else {
                throw DecodingError.dataCorruptedError(forKey: .device, in: container, debugDescription: "not a device id")
            }
            device = DeviceID(rawValue: id)
            signingKey = try HexField.decode(container, .signingKey)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(device.rawValue, forKey: .device)
            try container.encode(Hex.encode(signingKey), forKey: .signingKey)
        }
    }

    /// An invitation a device joined with: the invitation's public key, and its signature over the
    /// hub, the device and the device's keys, which only the holder of the printed secret could make.
    public struct Admission: Sendable, Equatable, Codable {
        public var invitationKey: [UInt8]
        public var signature: [UInt8]

        public init(invitationKey: [UInt8], signature: [UInt8]) {
            self.invitationKey = invitationKey
            self.signature = signature
        }

        enum CodingKeys: String, CodingKey {
            case invitationKey = "invitation_key"
            case signature
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            invitationKey = try HexField.decode(container, .invitationKey)
            signature = try HexField.decode(container, .signature)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Hex.encode(invitationKey), forKey: .invitationKey)
            try container.encode(Hex.encode(signature), forKey: .signature)
        }
    }

    public init(
        device: DeviceID, name: String, agreementKey: [UInt8], signingKey: [UInt8], epoch: Int64, writtenAt: Timestamp,
        publishedAt: Timestamp?, syncedAt: Timestamp?, signedFrom: Int64? = nil, vouches: [Vouch]? = nil,
        admission: Admission? = nil, invitations: [[UInt8]]? = nil, succeeds: Succession? = nil
    ) {
        self.device = device
        self.name = name
        self.agreementKey = agreementKey
        self.signingKey = signingKey
        self.epoch = epoch
        self.writtenAt = writtenAt
        self.publishedAt = publishedAt
        self.syncedAt = syncedAt
        self.signedFrom = signedFrom
        self.vouches = vouches
        self.admission = admission
        self.invitations = invitations
        self.succeeds = succeeds
    }

    enum CodingKeys: String, CodingKey {
        case device, name, epoch
        case agreementKey = "agreement_key"
        case signingKey = "signing_key"
        case writtenAt = "written_at"
        case publishedAt = "published_at"
        case syncedAt = "synced_at"
        case signedFrom = "signed_from"
        case vouches, admission, invitations, succeeds
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        device = try container.decode(DeviceID.self, forKey: .device)
        name = try container.decode(String.self, forKey: .name)
        agreementKey = try container.decode([UInt8].self, forKey: .agreementKey)
        signingKey = try container.decode([UInt8].self, forKey: .signingKey)
        epoch = try container.decode(Int64.self, forKey: .epoch)
        writtenAt = try container.decode(Timestamp.self, forKey: .writtenAt)
        publishedAt = try container.decodeIfPresent(Timestamp.self, forKey: .publishedAt)
        syncedAt = try container.decodeIfPresent(Timestamp.self, forKey: .syncedAt)
        signedFrom = try container.decodeIfPresent(Int64.self, forKey: .signedFrom)
        vouches = try container.decodeIfPresent([Vouch].self, forKey: .vouches)
        admission = try container.decodeIfPresent(Admission.self, forKey: .admission)
        invitations = try container.decodeIfPresent([String].self, forKey: .invitations)?.map { text in
            guard let bytes = Hex.decode(Array(text.utf8)) else {
                throw DecodingError.dataCorruptedError(forKey: .invitations, in: container, debugDescription: "not hexadecimal")
            }
            return bytes
        }
        succeeds = try container.decodeIfPresent(Succession.self, forKey: .succeeds)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(device, forKey: .device)
        try container.encode(name, forKey: .name)
        try container.encode(agreementKey, forKey: .agreementKey)
        try container.encode(signingKey, forKey: .signingKey)
        try container.encode(epoch, forKey: .epoch)
        try container.encode(writtenAt, forKey: .writtenAt)
        try container.encodeIfPresent(publishedAt, forKey: .publishedAt)
        try container.encodeIfPresent(syncedAt, forKey: .syncedAt)
        try container.encodeIfPresent(signedFrom, forKey: .signedFrom)
        try container.encodeIfPresent(vouches, forKey: .vouches)
        try container.encodeIfPresent(admission, forKey: .admission)
        try container.encodeIfPresent(invitations?.map { Hex.encode($0) }, forKey: .invitations)
        try container.encodeIfPresent(succeeds, forKey: .succeeds)
    }
}

/// Bytes a card's JSON holds as hexadecimal.
enum HexField {
    static func decode<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> [UInt8] {
        guard let bytes = Hex.decode(Array(try container.decode(String.self, forKey: key).utf8)) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not hexadecimal")
        }
        return bytes
    }
}
