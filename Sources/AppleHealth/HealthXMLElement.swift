/// What the scanner tells its reader: the start of an element of the kinds a Health export's reader
/// asks for (and of the root, whatever it is), and their ends. Other elements are scanned, and
/// nothing of them is kept or told.
enum HealthXMLEvent {
    case start(HealthXMLElement)
    case end(HealthXMLElement.Kind)
}

/// An element's start tag, with the attributes kept of it.
struct HealthXMLElement {
    enum Kind: UInt8 {
        case healthData, record, metadataEntry, other

        /// The kind an element name (its bytes) is.
        init(_ name: ArraySlice<UInt8>) {
            switch name.count {
            case 10 where name == Self.healthDataName[...]: self = .healthData
            case 6 where name == Self.recordName[...]: self = .record
            case 13 where name == Self.metadataEntryName[...]: self = .metadataEntry
            default: self = .other
            }
        }

        private static let healthDataName = Array("HealthData".utf8)
        private static let recordName = Array("Record".utf8)
        private static let metadataEntryName = Array("MetadataEntry".utf8)

        /// Whether the attributes of an element of this kind are kept.
        var keepsAttributes: Bool { self == .record || self == .metadataEntry }
    }

    let kind: Kind
    /// The line its start tag begins on.
    let line: Int
    /// 1 for the root.
    let depth: Int
    /// The root's name, as a message may quote it; nil for any other element.
    let rootName: String?
    let attributes: HealthXMLAttributes
}

/// The attributes a Health export's reader uses, of a `Record` or a `MetadataEntry`: each value's
/// first `keptBytes` bytes (references expanded) and its whole length, so that a value of megabytes
/// costs no more than one of a few bytes.
struct HealthXMLAttributes {
    enum Name: Int, CaseIterable {
        case type, sourceName, unit, value, startDate, endDate, creationDate, key

        /// The attribute an attribute name (its bytes) is, if one of these.
        init?(_ name: ArraySlice<UInt8>) {
            // By length first: this runs for every attribute of every record.
            let found: Name
            switch name.count {
            case 3: found = .key
            case 4: found = name.first == UInt8(ascii: "t") ? .type : .unit
            case 5: found = .value
            case 7: found = .endDate
            case 9: found = .startDate
            case 10: found = .sourceName
            case 12: found = .creationDate
            default: return nil
            }
            guard name == Self.names[found.rawValue][...] else { return nil }
            self = found
        }

        private static let names = allCases.map { Array($0.text.utf8) }

        /// The name as the export writes it.
        var text: String {
            switch self {
            case .type: "type"
            case .sourceName: "sourceName"
            case .unit: "unit"
            case .value: "value"
            case .startDate: "startDate"
            case .endDate: "endDate"
            case .creationDate: "creationDate"
            case .key: "key"
            }
        }
    }

    /// The most of a value kept: longer values are said to be too long, quoting their start.
    static let keptBytes = 256

    /// The kept bytes of every value, one after another.
    private(set) var storage: [UInt8] = []
    /// Where each value is in `storage` and its whole length, by `Name`; nil when the element has none.
    private var slots: [(range: Range<Int>, length: Int)?] = Array(repeating: nil, count: Name.allCases.count)

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        for index in slots.indices { slots[index] = nil }
    }

    /// Records the value whose kept bytes are `storage[start...]` and whose whole length is `length`.
    mutating func set(_ name: Name, from start: Int, length: Int) {
        // A value cut short may end inside a character: the character is left out.
        var end = storage.count
        if length > end - start {
            var lead = end
            while lead > start, storage[lead - 1] & 0xC0 == 0x80 { lead -= 1 }
            if lead > start {
                let byte = storage[lead - 1]
                let needed = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                if end - (lead - 1) < needed { end = lead - 1 }
            }
        }
        slots[name.rawValue] = (start..<end, length)
    }

    mutating func append(_ byte: UInt8) { storage.append(byte) }
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) { storage.append(contentsOf: bytes) }

    /// The value of `name`, if the element has it.
    func value(_ name: Name) -> HealthXMLValue? {
        slots[name.rawValue].map { HealthXMLValue(text: String(decoding: storage[$0.range], as: UTF8.self), length: $0.length) }
    }

    /// True when the value of `name` is `expected`, compared without making a string of it.
    func has(_ name: Name, _ expected: [UInt8]) -> Bool {
        guard let slot = slots[name.rawValue], slot.length == slot.range.count else { return false }
        return storage[slot.range] == expected[...]
    }
}

/// An attribute's value as kept: all of it, or its first bytes when `length` says there were more.
struct HealthXMLValue: Equatable {
    let text: String
    /// The value's length in bytes, all of it.
    let length: Int

    var isWhole: Bool { text.utf8.count == length }
}
