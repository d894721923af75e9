import FoundationEssentials
import JournalKit

/// The plaintext of a segment: JSON, each record one array (see `Replicated`'s coding).
///
/// - format 1, drinks only: an array of drink records;
/// - format 2 and later: an object listing each kind's records under its key (`"drinks"`, `"kinds"`),
///   with a key for every kind the format knows;
/// - format 3: format 2's listing, in a segment signed by its device and sealed under a key epoch
///   (`SegmentSeal`);
/// - format 4: format 3, with drink names beyond ASCII (`DrinkName.anyScriptFormat`);
/// - format 5: nights, and slow drinks of one's own;
/// - format 6: settings, and records of other devices relayed by the log's device (`relayFormat`):
///   a journal that moved to a new hub publishes everything it holds, each record with its origin.
///
/// A segment is written in the lowest format that carries its records, and never below format 3, as
/// it must be signed: a journal that predates a format refuses a segment in it by its number rather
/// than misread it, and waits on it until updated, so only what it would refuse is kept from it.
enum SegmentCodec {
    /// The newest segment format this journal reads and writes.
    static let format: UInt8 = max(SegmentSeal.signedFormat, DrinkName.anyScriptFormat, RecordKind.all.map(\.format).max() ?? 1)

    /// The segment format from which a log may hold records another device made, relayed by its own
    /// device, which signs the segment: a journal from before refuses such a segment by its number,
    /// where it would refuse each relayed record as put in the wrong log.
    static let relayFormat: UInt8 = 6

    /// The plaintext of `records` for `device`'s log, in the lowest format that carries them, and that format.
    static func encode(_ records: [AnyReplicated], device: DeviceID) throws -> (format: UInt8, bytes: [UInt8]) {
        let relays = records.contains { $0.version.origin != device }
        let format = max(SegmentSeal.signedFormat, records.map(\.segmentFormat).max() ?? 1, relays ? relayFormat : 0)
        return (format, Array(try JSONEncoder().encode(Listing(records: records, format: format))))
    }

    /// The plaintext in an older format, the lowest that holds the records' kinds, as journals before
    /// signing wrote it: for tests of upgrades and of older devices' logs.
    static func encodeUnsigned(_ records: [AnyReplicated]) throws -> (format: UInt8, bytes: [UInt8]) {
        let format = records.map(\.kind.format).max() ?? 1
        let encoder = JSONEncoder()
        let data = format == 1 ? try encoder.encode(records) : try encoder.encode(Listing(records: records, format: format))
        return (format, Array(data))
    }

    /// The records of a segment in `device`'s log, and those it holds that break the rules or, before
    /// `relayFormat`, were made by another device: each is refused on its own, the same way on every
    /// device. A segment whose layout is wrong as a whole is an error.
    static func decode(_ bytes: [UInt8], format: UInt8, device: DeviceID) throws(SegmentContentError) -> SegmentContent {
        let decoder = JSONDecoder()
        decoder.userInfo[Listing.formatKey] = format
        decoder.userInfo[Listing.deviceKey] = device
        do {
            return try decoder.decode(SegmentContent.self, from: Data(bytes))
        } catch let error as SegmentContentError {
            throw error
        } catch {
            throw SegmentContentError("its content does not match its format \(format)")
        }
    }

    /// Format 2 and later: each kind's records under its key.
    struct Listing: Encodable {
        static let formatKey = CodingUserInfoKey(rawValue: "segment format")!
        static let deviceKey = CodingUserInfoKey(rawValue: "segment device")!

        let records: [AnyReplicated]
        let format: UInt8

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: KindKey.self)
            for kind in RecordKind.all where kind.format <= format {
                try container.encode(records.filter { $0.kind == kind }, forKey: KindKey(stringValue: kind.segmentKey))
            }
        }
    }
}

/// What a segment holds.
struct SegmentContent: Decodable {
    /// The segment format it was written in: signed from `SegmentSeal.signedFormat` on.
    var format: UInt8 = 0
    var records: [AnyReplicated] = []
    /// Records that break the rules, with their place in the segment.
    var refused: [(kind: RecordKind, index: Int, reason: String)] = []

    init(from decoder: any Decoder) throws {
        guard let format = decoder.userInfo[SegmentCodec.Listing.formatKey] as? UInt8,
            let device = decoder.userInfo[SegmentCodec.Listing.deviceKey] as? DeviceID
        else { throw SegmentContentError("its format is unknown") }
        self.format = format
        // Before relaying, a log held only records its device made.
        let origin = format < SegmentCodec.relayFormat ? device : nil
        if format == 1 {
            var list = try decoder.unkeyedContainer()
            try take(Drink.kind, from: &list, origin: origin)
            return
        }
        let container = try decoder.container(keyedBy: KindKey.self)
        let known = RecordKind.all.filter { $0.format <= format }
        if let unknown = container.allKeys.first(where: { key in !known.contains { $0.segmentKey == key.stringValue } }) {
            throw SegmentContentError("it lists records of a kind this journal does not know ('\(unknown.stringValue)')")
        }
        for kind in known where container.contains(KindKey(stringValue: kind.segmentKey)) {
            var list = try container.nestedUnkeyedContainer(forKey: KindKey(stringValue: kind.segmentKey))
            try take(kind, from: &list, origin: origin)
        }
    }

    /// Takes `kind`'s records from `list`; `origin`, when given, is the only device a record may be from.
    private mutating func take(_ kind: RecordKind, from list: inout some UnkeyedDecodingContainer, origin: DeviceID?) throws {
        for (index, result) in try kind.decodeRecords(from: &list).enumerated() {
            switch result {
            case .success(let record) where origin.map({ record.version.origin != $0 }) == true:
                // A device publishes only records it made: this one was put in its log.
                refused.append((kind, index + 1, "it was made by another device than the one whose log holds it"))
            case .success(let record): records.append(record)
            case .failure(let error): refused.append((kind, index + 1, SegmentContent.reason(error)))
            }
        }
    }

    /// Why a record was refused, for a person: the rule it breaks, or that it is malformed.
    static func reason(_ error: any Error) -> String {
        if let invalid = error as? InvalidRecordError { return invalid.problem }
        return "it is malformed"
    }
}

/// A key of a segment's object: a kind's segment key.
struct KindKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A segment that opened (so it is authentic) but whose content this journal cannot use.
struct SegmentContentError: Error, CustomStringConvertible {
    /// Why a segment's file could not be used.
    enum Cause {
        /// Its content: damaged, not sealed with the key, not signed by its device, or laid out in a
        /// way this journal does not know.
        case content
        /// Signed by a device whose card (the key that checks the signature) has not arrived yet, as a
        /// sync tool may deliver the segment first: it waits, as a segment on its way does.
        case awaitingCard
        /// The file itself: not a regular file, or one this user may not read (a shared hub's member can
        /// plant either). Not a segment at all.
        case unusableFile
        /// Its device is not a member of the hub (`Membership`): the device's log is passed over, said
        /// once, until that changes.
        case notAdmitted
        /// Unsigned, past what a member vouched for of its device's unsigned segments since the hub's key
        /// first changed (`EpochChain.takenThrough`): whoever held the first key could have written it.
        case unvouched
        /// Its device was revoked, and it reaches past what the revocation took: a segment that merged
        /// what was taken with what came after (the device compacted its log before it learnt it was
        /// revoked) cannot be taken in part, as records carry no position.
        case pastRevocation
    }

    let description: String
    let cause: Cause

    init(_ description: String, cause: Cause = .content) {
        self.description = description
        self.cause = cause
    }
}
