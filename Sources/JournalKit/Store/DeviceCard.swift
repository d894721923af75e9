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

    public init(
        device: DeviceID, name: String, agreementKey: [UInt8], signingKey: [UInt8], epoch: Int64, writtenAt: Timestamp,
        publishedAt: Timestamp?, syncedAt: Timestamp?, signedFrom: Int64? = nil
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
    }

    enum CodingKeys: String, CodingKey {
        case device, name, epoch
        case agreementKey = "agreement_key"
        case signingKey = "signing_key"
        case writtenAt = "written_at"
        case publishedAt = "published_at"
        case syncedAt = "synced_at"
        case signedFrom = "signed_from"
    }
}
