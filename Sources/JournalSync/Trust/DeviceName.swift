import Glibc
import JournalKit

/// What a device is called in `journal sync devices` and `revoke`: the host name unless a person
/// chose another (`journal sync rename`). Any script, inner spaces allowed; at most 40 characters;
/// nothing that acts on a terminal or reads other than it is (controls, bidirectional overrides and
/// other invisible format characters), and not a device id, which would make `revoke ID` ambiguous.
/// A peer's card is held to the same rule.
public struct DeviceName: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    public static let maximumLength = 40
    /// Characters can each carry any number of combining marks: the bytes are bounded too.
    static let maximumBytes = 160

    /// `text`, trimmed of surrounding spaces, or why it cannot name a device.
    public init(_ text: String) throws(SyncError) {
        let trimmed = text.trimmingSpaces
        if let problem = Self.problem(trimmed) { throw SyncError.invalidDeviceName(problem) }
        self.text = trimmed
    }

    /// A name read from a card, checked as a person's would be.
    init?(card text: String) {
        guard text == text.trimmingSpaces, Self.problem(text) == nil else { return nil }
        self.text = text
    }

    public var description: String { text }

    static func problem(_ text: String) -> DeviceNameProblem? {
        if text.isEmpty { return .empty }
        if text.count > maximumLength || text.utf8.count > maximumBytes { return .tooLong(text.count) }
        if let bad = text.unicodeScalars.first(where: isRefused) { return .character(bad) }
        if text.contains("  ") { return .doubleSpace }
        // The name as it reads, look-alike letters of other scripts as the letters they look like.
        if UUIDText.isCanonical(text.lowercased()) || readsAsDeviceID(text) || readsAsDeviceID(DeviceNameKey(text).text) { return .deviceID }
        return nil
    }

    /// True when `text` could be taken for a device id as `journal sync devices` shows it (8 hex
    /// digits or more, dashes aside): `revoke` would not know which is meant.
    static func readsAsDeviceID(_ text: String) -> Bool {
        let digits = text.unicodeScalars.filter { $0 != "-" }
        return digits.count >= 8 && text.unicodeScalars.allSatisfy { $0 == "-" || $0.properties.isASCIIHexDigit }
    }

    /// What two names are compared by (`DeviceNameKey`): names that look the same on a terminal (letter
    /// case, width, look-alike letters of other scripts aside) have one key, and a hub holds one
    /// device per key.
    public static func key(_ text: String) -> DeviceNameKey { DeviceNameKey(text) }

    /// Scalars no name holds: controls, format characters (bidi overrides, zero-width joiners and
    /// spaces), what Unicode says to draw as nothing (Hangul fillers, the combining grapheme joiner),
    /// the blank braille pattern, line and paragraph separators, spaces other than the plain one,
    /// unassigned and private-use code points.
    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isDefaultIgnorableCodePoint || scalar == "\u{2800}" { return true }
        return switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate: true
        case .spaceSeparator: scalar != " "
        default: false
        }
    }

    /// This machine's host name, or "device-" and the start of its id when the host name cannot
    /// name a device.
    public static func host(fallback device: DeviceID) -> DeviceName {
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count - 1) == 0,
            let name = try? DeviceName(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        {
            return name
        }
        return DeviceName(unchecked: "device-" + device.rawValue.prefix(8))
    }

    private init(unchecked text: String) { self.text = text }
}

/// Why a text cannot name a device.
public enum DeviceNameProblem: Sendable, Equatable, CustomStringConvertible {
    case empty
    case tooLong(Int)
    case character(Unicode.Scalar)
    case doubleSpace
    case deviceID

    public var description: String {
        let rule = "a device's name is 1 to \(DeviceName.maximumLength) letters, digits, marks, punctuation or symbols of any "
            + "script, with single spaces between words"
        switch self {
        case .empty: return "the name is empty: \(rule)"
        case .tooLong(let count): return "the name is \(count) characters long (or too long in bytes): \(rule)"
        case .character(let scalar):
            return "the name holds U+\(String(scalar.value, radix: 16, uppercase: true)), a character that is invisible or acts "
                + "on a terminal: \(rule)"
        case .doubleSpace: return "the name has two spaces in a row: \(rule)"
        case .deviceID: return "the name reads as a device id, which `journal sync revoke` would take for a device's: \(rule)"
        }
    }
}
