/// Writes JSON with keys in the order given and numbers as people write them (64, not 64.0), without
/// loading an encoder at start-up.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    /// An integer written exactly, even past 2^53 where a Double would round it.
    case integer(Int64)
    case string(String)
    case array([JSONValue])
    /// An object, its keys in order.
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)): return a.elementsEqual(b) { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public static func optional(_ text: String?) -> JSONValue { text.map { .string($0) } ?? .null }

    /// Compact JSON text.
    public var text: String {
        var output = ""
        write(to: &output, indent: nil)
        return output
    }

    /// JSON text indented by two spaces, one element or key per line.
    public var prettyText: String {
        var output = ""
        write(to: &output, indent: "")
        return output
    }

    private func write(to output: inout String, indent: String?) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value): output += JSONValue.format(value)
        case .integer(let value): output += String(value)
        case .string(let value): JSONValue.quote(value, into: &output)
        case .array(let elements):
            writeList(elements.map { (nil, $0) }, open: "[", close: "]", to: &output, indent: indent)
        case .object(let members):
            writeList(members.map { ($0.0, $0.1) }, open: "{", close: "}", to: &output, indent: indent)
        }
    }

    private func writeList(
        _ items: [(String?, JSONValue)], open: String, close: String, to output: inout String, indent: String?
    ) {
        output += open
        guard !items.isEmpty else { return output += close }
        let inner = indent.map { $0 + "  " }
        for (index, (key, value)) in items.enumerated() {
            if index > 0 { output += "," }
            if let inner { output += "\n" + inner }
            if let key {
                JSONValue.quote(key, into: &output)
                output += inner == nil ? ":" : ": "
            }
            value.write(to: &output, indent: inner)
        }
        if let indent { output += "\n" + indent }
        output += close
    }

    /// A number as JSON writes it: 64, 62.5.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    static func quote(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            // JSON must escape C0 controls; escaping everything else that acts on a terminal too keeps
            // `--json` safe to print, and reads back as the same text.
            case _ where TerminalText.acts(scalar):
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
