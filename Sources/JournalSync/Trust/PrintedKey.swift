import Crypto
import JournalKit

/// The sync key as `journal sync key` prints it, for a person to carry to another machine:
/// `JK2-HHHH-XXXX-...-XXXX-CCCC`. `HHHH` is the label of the hub it opens (so a person with two hubs
/// can tell their keys apart, and `sync status` shows the same label), thirteen groups hold the key in
/// Crockford's base32, six the secret of an invitation (`Invitations`: who admitted the machine that
/// joins with it), and `CCCC` checks all of it: any one character mistyped, any two neighbours
/// swapped within the first 14 groups, and any character missing or extra is refused, said as the
/// slip it is (`KeyTypo`); other slips are caught but for about one in a million. The older forms are
/// still read: `JK1-`, the same without an invitation, and 64 hexadecimal characters.
public struct PrintedKey: Sendable {
    public let key: SyncKey
    /// The label of the hub the key was printed for; nil for a key in the oldest form.
    public let hubLabel: String?
    /// The secret of the invitation printed with the key; nil for a key printed without one.
    public let invitation: [UInt8]?

    /// A key the oldest form names: 64 hexadecimal characters, without a label.
    public init(_ key: SyncKey) {
        self.init(key: key, hubLabel: nil, invitation: nil)
    }

    private init(key: SyncKey, hubLabel: String?, invitation: [UInt8]?) {
        self.key = key
        self.hubLabel = hubLabel
        self.invitation = invitation
    }

    /// The form printed now (`JK2`), with an invitation; `JK1` had none.
    static let version = 2
    static let labelSymbols = 4
    static let keySymbols = 52
    static let invitationSymbols = 24
    static let checkSymbols = 4

    /// How many symbols follow `JK` and the version digit, in each version read.
    static func symbolCount(version: Int) -> Int { labelSymbols + keySymbols + (version >= 2 ? invitationSymbols : 0) + checkSymbols }

    /// The printed form of `key`, the key of the hub `hubID`, with the secret of an invitation.
    public static func text(of key: SyncKey, hubID: HubID, invitation: [UInt8]) -> String {
        precondition(invitation.count == Invitations.seedBytes, "an invitation's secret is \(Invitations.seedBytes) bytes")
        return text(of: key, hubID: hubID, invitationOrNone: invitation)
    }

    /// The printed form of `key` alone, without an invitation (`JK1`): a machine that joins with it is
    /// admitted by the key, and vouched for by no one until a person keeps it (`--keep`).
    public static func text(of key: SyncKey, hubID: HubID) -> String { text(of: key, hubID: hubID, invitationOrNone: nil) }

    /// The printed form of `key`, with `invitation` (`JK2`) or without (`JK1`).
    static func text(of key: SyncKey, hubID: HubID, invitationOrNone invitation: [UInt8]?) -> String {
        let values = label(ofHub: hubID) + key.key.withUnsafeBytes { CrockfordBase32.values(of: $0) } + CrockfordBase32.values(of: invitation ?? [])
        let all = values + check(values)
        let groups = stride(from: 0, to: all.count, by: 4).map { start in
            String(decoding: all[start..<start + 4].map { CrockfordBase32.symbols[Int($0)] }, as: UTF8.self)
        }
        return "JK\(invitation == nil ? 1 : version)-" + groups.joined(separator: "-")
    }

    /// The label `sync status` and the printed key show for the hub `hubID`.
    public static func labelText(ofHub hubID: HubID) -> String {
        String(decoding: label(ofHub: hubID).map { CrockfordBase32.symbols[Int($0)] }, as: UTF8.self)
    }

    /// Reads a key a person gave, in either form; `source` names where it came from for the message.
    /// Dashes and white space may be anywhere, letters in either case.
    public init(parsing text: String, source: String) throws(SyncError) {
        var characters = Array(text.utf8).filter { ![32, 9, 10, 13, UInt8(ascii: "-")].contains($0) }
        guard characters.count >= 2, characters[0] | 32 == UInt8(ascii: "j"), characters[1] | 32 == UInt8(ascii: "k") else {
            self.init(try SyncKey(hex: String(decoding: characters, as: UTF8.self), source: source))
            return
        }
        characters.removeFirst(2)
        // Read as the key's own symbols are, so that "JKl" (a lower-case L for the one) is the same slip
        // forgiven.
        guard let versionDigit = characters.first, let version = CrockfordBase32.value(of: versionDigit).map(Int.init),
            (1...Self.version).contains(version)
        else {
            let newer = characters.first.map { (UInt8(ascii: "0") + UInt8(Self.version + 1)...UInt8(ascii: "9")).contains($0) } == true
            throw SyncError.mistypedKey(source: source, problem: newer ? .newerForm : .notAKey)
        }
        characters.removeFirst()
        let expected = Self.symbolCount(version: version)
        guard characters.count == expected else {
            throw SyncError.mistypedKey(source: source, problem: .length(found: characters.count, expected: expected, version: version))
        }
        var values: [UInt8] = []
        for (index, character) in characters.enumerated() {
            guard let value = CrockfordBase32.value(of: character) else {
                throw SyncError.mistypedKey(source: source, problem: .symbol(group: index / 4 + 1))
            }
            values.append(value)
        }
        let body = Array(values.dropLast(Self.checkSymbols))
        let keyValues = Array(body.dropFirst(Self.labelSymbols).prefix(Self.keySymbols))
        let invitationValues = Array(body.dropFirst(Self.labelSymbols + Self.keySymbols))
        guard Array(values.suffix(Self.checkSymbols)) == Self.check(body), let bytes = CrockfordBase32.bytes(of: keyValues, count: 32) else {
            throw SyncError.mistypedKey(source: source, problem: .checksum)
        }
        var invitation: [UInt8]?
        if version >= 2 {
            guard let seed = CrockfordBase32.bytes(of: invitationValues, count: Invitations.seedBytes) else {
                throw SyncError.mistypedKey(source: source, problem: .checksum)
            }
            invitation = seed
        }
        self.init(
            key: SyncKey(bytes: bytes),
            hubLabel: String(decoding: body.prefix(Self.labelSymbols).map { CrockfordBase32.symbols[Int($0)] }, as: UTF8.self),
            invitation: invitation)
    }

    /// Four 5-bit values naming the hub: the start of a hash of its id.
    static func label(ofHub hubID: HubID) -> [UInt8] {
        let digest = SHA256.hash(data: Array("journal hub label v1\0\(hubID.rawValue)".utf8))
        return Array(CrockfordBase32.values(of: Array(digest.prefix(3))).prefix(labelSymbols))
    }

    /// The four check values of `values`: two for a position-weighted sum modulo the prime 1021, which
    /// no single changed value or swap of two neighbours leaves the same (each changes the sum by a
    /// non-zero amount smaller than 1021 times a factor prime to it), and two from a hash, for the
    /// slips the sum does not catch.
    static func check(_ values: [UInt8]) -> [UInt8] {
        let weighted = values.enumerated().reduce(0) { ($0 + ($1.offset + 1) * Int($1.element)) % 1021 }
        let digest = SHA256.hash(data: Array("journal key check v1".utf8) + values)
        let hashed = Array(digest.prefix(2))
        return [UInt8(weighted >> 5), UInt8(weighted & 31), hashed[0] & 31, hashed[1] & 31]
    }
}

/// What is wrong with a printed key a person gave.
public enum KeyTypo: Sendable, Equatable {
    /// The wrong number of characters: one was left out, or added.
    case length(found: Int, expected: Int, version: Int)
    /// A character no key holds, in the group counted from the first after `JK2`.
    case symbol(group: Int)
    /// Every character is a key's, but they do not check: one is mistyped.
    case checksum
    /// `JK` and a version this journal does not know: printed by a newer journal.
    case newerForm
    /// `JK` and no version.
    case notAKey

    var description: String {
        switch self {
        case .length(let found, let expected, let version):
            return "it has \(found) key characters after `JK\(version)` where a key has \(expected): one is missing or extra"
        case .symbol(let group):
            return "group \(group) after `JK` and the version digit holds a character that is in no key (keys use 0-9 and A-Z "
                + "without I, L, O and U)"
        case .checksum:
            return "its check (the last group) does not match the rest: a character is mistyped"
        case .newerForm:
            return "it was printed by a newer journal. Update journal on this machine"
        case .notAKey:
            return "it starts with `JK` but not `JK1` or `JK2`"
        }
    }
}
