import CommandLineSupport
import JournalKit

/// `status --format`: one line of text with `{field}` replaced by a field of `status --json`, or
/// `{field:.Nf}` by a number with N decimals; `{{` and `}}` are braces. Checked before anything is
/// read, so a template that names an unknown field fails at once, naming it.
struct FieldTemplate {
    private enum Piece {
        case text(String)
        case field(name: String, decimals: Int?)
    }

    private let pieces: [Piece]

    init(_ template: String, fields: [String]) throws(TemplateError) {
        var pieces: [Piece] = []
        var text = ""
        var characters = template[...]
        while let character = characters.popFirst() {
            if character == "{" && characters.first == "{" || character == "}" && characters.first == "}" {
                characters.removeFirst()
                text.append(character)
                continue
            }
            if character == "}" { throw .unopened }
            guard character == "{" else {
                text.append(character)
                continue
            }
            guard let close = characters.firstIndex(of: "}") else { throw .unclosed }
            let inside = characters[..<close]
            characters = characters[characters.index(after: close)...]
            let name = String(inside.prefix(while: { $0 != ":" }))
            guard fields.contains(name) else { throw .unknownField(name, known: fields) }
            var decimals: Int?
            if inside.count > name.count {
                let spec = inside.dropFirst(name.count + 1)
                guard spec.hasPrefix("."), spec.hasSuffix("f"), let count = Int(spec.dropFirst().dropLast()), (0...6).contains(count) else {
                    throw .badSpecification(String(spec), field: name)
                }
                decimals = count
            }
            if !text.isEmpty { pieces.append(.text(text)) }
            text = ""
            pieces.append(.field(name: name, decimals: decimals))
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        self.pieces = pieces
    }

    /// The line, from `values` (the fields of `status --json`).
    func render(_ values: [(String, JSONValue)]) -> String {
        var line = ""
        for piece in pieces {
            switch piece {
            case .text(let text): line += text
            case .field(let name, let decimals):
                guard let value = values.first(where: { $0.0 == name })?.1 else { continue }
                line += Self.text(of: value, decimals: decimals)
            }
        }
        return line
    }

    private static func text(of value: JSONValue, decimals: Int?) -> String {
        switch value {
        case .number(let number): return decimals.map { fixed(number, decimals: $0) } ?? JSONValue.format(number)
        case .integer(let number): return decimals.map { fixed(Double(number), decimals: $0) } ?? String(number)
        case .string(let text): return TerminalText.escaped(text)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return ""
        case .array, .object: return value.text
        }
    }

    /// `value` rounded to `decimals` places, always with them: 176.89 as "177" (0), "176.9" (1).
    static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return JSONValue.format(value) }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = String(scaled / Int64(scale))
        let sign = value < 0 && scaled != 0 ? "-" : ""
        guard decimals > 0 else { return sign + whole }
        let fraction = String(scaled % Int64(scale))
        return sign + whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}

/// A `--format` template that cannot be used.
enum TemplateError: JournalFailure, Equatable {
    case unknownField(String, known: [String])
    case badSpecification(String, field: String)
    case unclosed
    case unopened

    var kind: FailureKind { .usage }

    var description: String {
        switch self {
        case .unknownField(let name, let known):
            return "--format names the field '\(name)', which status does not have; it has \(known.joined(separator: ", "))."
        case .badSpecification(let spec, let field):
            return "--format asks '\(field)' for '\(spec)'; a number takes .0f to .6f (decimals), as in {current_mg:.0f}."
        case .unclosed:
            return "--format has a '{' without its '}'; write {{ for a brace of its own."
        case .unopened:
            return "--format has a '}' without its '{'; write }} for a brace of its own."
        }
    }
}
