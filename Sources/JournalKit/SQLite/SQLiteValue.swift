/// One SQLite value, as bound to a statement or read from a row.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByFloatLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLiteValue {
    /// `.null` for nil, `.text` otherwise: for optional text columns such as a note.
    public static func text(orNull value: String?) -> SQLiteValue {
        value.map { .text($0) } ?? .null
    }
}
