/// Reads `config.toml`: the few settings a person can change, each a line `key = number` or
/// `key = "23:00"` in TOML's syntax (comments, blank lines, quoted keys, `_` between digits,
/// exponents, a time quoted or as a TOML local time). Anything else a TOML file can hold (a table, an
/// array, a date) is not a setting, and is refused with its line, as is a key set twice or a value
/// out of range: never a silent default.
///
/// Written here rather than read with a TOML library: every error names its line (TOMLKit tells no
/// positions for keys and values), a settings file needs one shape of line, and the everyday commands
/// do not load a C++ TOML parser at every start.
public enum SettingsFile {
    /// The settings in `bytes` and the line each came from; `path` names the file in errors. The lines
    /// are a list, not a dictionary: a dictionary's first use costs `journal add` a scan of the
    /// runtime's protocol conformances. The first line that is not a setting is an error.
    public static func parse(_ bytes: [UInt8], path: String) throws(SettingsError) -> (settings: JournalSettings, lines: [(key: JournalSettings.Key, line: Int)]) {
        let read = try read(bytes, path: path)
        if let first = read.problems.first { throw first }
        return (read.settings, read.lines)
    }

    /// What `parse` reads, every line that is a setting, and each line that is not: what `journal
    /// config` shows of a file with a mistake in it. A file that is no text at all is an error.
    public static func read(_ bytes: [UInt8], path: String) throws(SettingsError)
        -> (settings: JournalSettings, lines: [(key: JournalSettings.Key, line: Int)], problems: [SettingsError])
    {
        if let nul = bytes.firstIndex(of: 0) {
            throw SettingsError(
                path: path, line: bytes[..<nul].filter { $0 == 10 }.count + 1, key: nil,
                problem: "it holds a NUL byte, which a settings file cannot")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw SettingsError(path: path, line: nil, key: nil, problem: "it is not UTF-8 text")
        }
        var settings = JournalSettings.defaults
        var lines: [(key: JournalSettings.Key, line: Int)] = []
        var problems: [SettingsError] = []
        var number = 0
        // "\r\n" is one Character in Swift: both line ends are split on.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            // A file of another format says so once, by its first line, not as a setting gone wrong.
            if lines.isEmpty, problems.isEmpty, line.hasPrefix("{") || line.hasPrefix("<") || line.hasPrefix("---") {
                problems.append(SettingsError(
                    path: path, line: number, key: nil,
                    problem: "it is not TOML (it reads as \(line.hasPrefix("{") ? "JSON" : line.hasPrefix("<") ? "XML" : "YAML")): "
                        + "settings are lines such as half_life_hours = 5"))
                break
            }
            switch setting(line, lines: lines) {
            case .success(let (key, value)):
                settings[key] = value
                lines.append((key, number))
            case .failure(let problem):
                problems.append(SettingsError(path: path, line: number, key: problem.key, problem: problem.problem))
            }
        }
        return (settings, lines, problems)
    }

    /// Why one line of the file is not a setting: the key it names, if any, and the problem.
    struct LineProblem: Error {
        let key: String?
        let problem: String
    }

    /// The setting a line (past its indent) sets, with `lines` those read before it.
    private static func setting(_ line: Substring, lines: [(key: JournalSettings.Key, line: Int)]) -> Result<(JournalSettings.Key, JournalSettings.Value), LineProblem> {
        if line.hasPrefix("[") {
            let name = String(line.dropFirst().prefix { $0 != "]" }).trimmingSpaces
            return .failure(LineProblem(key: name, problem: "there is no such setting (settings are not in tables)"))
        }
        guard let (name, rest) = key(line) else { return .failure(LineProblem(key: nil, problem: "this line is not a setting, such as half_life_hours = 5")) }
        var value = rest.drop { $0 == " " || $0 == "\t" }
        guard value.hasPrefix("=") else {
            // `bedtime: 23:00` (YAML's way) or `bedtime 23:00`: the line as TOML writes it.
            let given = value.drop { $0 == ":" || $0 == " " || $0 == "\t" }.prefix { $0 != "#" }.trimmingSpaces
            return .failure(LineProblem(key: name, problem: "this line is not a setting: a setting is written " + written(name, given)))
        }
        value = value.dropFirst().drop { $0 == " " || $0 == "\t" }
        if let comment = value.firstIndex(of: "#") { value = value[..<comment] }
        let valueText = String(value).trimmingSpaces
        guard let key = JournalSettings.Key(rawValue: name) else { return .failure(LineProblem(key: name, problem: "there is no such setting")) }
        if let first = lines.first(where: { $0.key == key }) { return .failure(LineProblem(key: name, problem: "it is set twice (first on line \(first.line))")) }
        do { return .success((key, try Self.value(valueText, of: key, quoted: true))) } catch {
            return .failure(LineProblem(key: name, problem: error.problem))
        }
    }

    /// `name = value` as this file writes it (`bedtime = "23:00"`), for `given` as a person typed it;
    /// the setting's example where `given` is none of its values.
    private static func written(_ name: String, _ given: String) -> String {
        guard let key = JournalSettings.Key(rawValue: name) else { return "\(name) = \(given.isEmpty ? "5" : given)" }
        let unquoted = given.count >= 2 && (given.hasPrefix("\"") && given.hasSuffix("\"") || given.hasPrefix("'") && given.hasSuffix("'"))
            ? String(given.dropFirst().dropLast()) : given
        guard let value = try? Self.value(unquoted, of: key, quoted: false) else { return key.example }
        return "\(name) = \(text(of: value))"
    }

    /// The key at the start of `line` (bare, or in double or single quotes) and what follows it.
    private static func key(_ line: Substring) -> (String, Substring)? {
        if let quote = line.first, quote == "\"" || quote == "'" {
            let body = line.dropFirst()
            guard let end = body.firstIndex(of: quote) else { return nil }
            return (String(body[..<end]), body[body.index(after: end)...])
        }
        // Dotted keys (`limits.daily = 5`) are read whole, to be refused by their name.
        let name = line.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") }
        return name.isEmpty ? nil : (String(name), line.dropFirst(name.count))
    }

    /// A setting's value as the file writes it (`quoted`: a time in quotes, or as a TOML local time)
    /// or as a command line gives it (`journal config bedtime 11pm`): one rule for both.
    public static func value(_ text: String, of key: JournalSettings.Key, quoted: Bool) throws(SettingsValueError) -> JournalSettings.Value {
        switch key.kind {
        case .number(let allowed, let unit):
            guard let number = Self.number(text), number.isFinite else {
                throw SettingsValueError(problem: "it must be a number of \(unit), such as \(key.example)")
            }
            guard allowed.contains(number) else {
                throw SettingsValueError(
                    problem: "\(formatExactly(number)) is out of range: use \(formatMilligrams(allowed.lowerBound)) to "
                        + "\(formatMilligrams(allowed.upperBound)) \(unit)")
            }
            return .number(number)
        case .clockTime:
            guard let time = quoted ? Self.clockTime(text) : ClockTime.parse(text.trimmingSpaces) else {
                throw SettingsValueError(
                    problem: "it must be a time of day, \(quoted ? "in quotes, " : "")such as \(quoted ? key.example : "23:00 or 11pm")")
            }
            return .clockTime(time)
        case .conditions:
            guard let names = quoted ? Self.stringArray(text) : Self.words(text) else {
                throw SettingsValueError(problem: "it must be a list in brackets, such as \(key.example)")
            }
            var conditions: [Condition] = []
            for name in names where !(names.count == 1 && !quoted && name == "none") {
                guard let condition = Condition(rawValue: name.lowercased()) else {
                    let known = Condition.allCases.map(\.rawValue).joined(separator: ", ")
                    throw SettingsValueError(problem: "'\(TerminalText.quoted(name))' is not a condition: they are \(known)")
                }
                conditions.append(condition)
            }
            return .conditions(try Condition.checked(conditions))
        case .model:
            let kinds = CaffeineModel.Kind.allCases.map(\.rawValue).joined(separator: " or ")
            guard let name = quoted ? Self.string(text) : text.trimmingSpaces else {
                throw SettingsValueError(problem: "it must be \(kinds), in quotes, such as \(key.example)")
            }
            guard let kind = CaffeineModel.Kind(rawValue: name.lowercased()) else {
                throw SettingsValueError(problem: "'\(TerminalText.quoted(name))' is not a model: it is \(kinds)")
            }
            return .model(kind)
        }
    }

    /// A TOML basic or literal string on one line, `"personal"` or `'personal'`, without its quotes;
    /// nil for anything else (escapes are not needed by any value a setting takes, and are refused).
    static func string(_ text: String) -> String? {
        guard let quote = text.first, quote == "\"" || quote == "'", text.count >= 2, text.last == quote else { return nil }
        let body = text.dropFirst().dropLast()
        guard !body.contains(quote), !body.contains("\\") else { return nil }
        return String(body)
    }

    /// A TOML array of strings on one line, `["smoker", 'fluvoxamine',]`; nil for anything else.
    static func stringArray(_ text: String) -> [String]? {
        guard text.hasPrefix("["), text.hasSuffix("]") else { return nil }
        var items = text.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        // TOML allows a comma after the last element.
        if items.last == "" { items.removeLast() }
        if items.isEmpty { return [] }
        var strings: [String] = []
        for item in items {
            guard let string = string(item) else { return nil }
            strings.append(string)
        }
        return strings
    }

    /// Names as a command line gives them: `smoker,fluvoxamine` or `smoker fluvoxamine`.
    static func words(_ text: String) -> [String]? {
        text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// A time of day as a TOML string (`"23:00"`, `'11pm'`: what `--bedtime` takes) or a TOML local
    /// time (`23:00:00`).
    static func clockTime(_ text: String) -> ClockTime? {
        var body = Substring(text)
        if let quote = body.first, quote == "\"" || quote == "'" {
            guard body.count >= 2, body.last == quote else { return nil }
            body = body.dropFirst().dropLast()
        } else {
            // Unquoted, only a TOML local time.
            guard body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }) else { return nil }
        }
        return ClockTime.parse(String(body))
    }

    /// `bytes` with `key` set to `value` (its line replaced, its comment kept, or a line added), or
    /// with its line taken out when `value` is nil; every other line as it was. Refused when the file
    /// as it is, or as it would be, is not a settings file.
    public static func edited(
        _ bytes: [UInt8], path: String, setting key: JournalSettings.Key, to value: JournalSettings.Value?
    ) throws(SettingsError) -> [UInt8] {
        let lines = try parse(bytes, path: path).lines
        var rows = bytes.isEmpty ? [] : bytes.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
        // The last line's end is the file's: a file that ends its lines keeps doing so.
        let endsWithNewline = bytes.last == 10
        if endsWithNewline { rows.removeLast() }
        let written = value.map { Array("\(key.rawValue) = \(text(of: $0))".utf8) }
        if let at = lines.first(where: { $0.key == key })?.line {
            let old = rows[at - 1]
            if var replacement = written {
                // A comment after the value is the person's; a carriage return is the file's line end.
                if let hash = commentStart(old) { replacement += Array(" ".utf8) + old[hash...].filter { $0 != 13 } }
                if old.last == 13 { replacement.append(13) }
                rows[at - 1] = replacement
            } else {
                rows.remove(at: at - 1)
            }
        } else if let written {
            rows.append(written)
        }
        var result = rows.joined(separator: [10]).map { $0 }
        // A file whose every line went is empty, not a blank line.
        if !rows.isEmpty && (endsWithNewline || written != nil) { result.append(10) }
        _ = try parse(result, path: path)
        return result
    }

    /// A value as the file writes it: `5`, `"23:00"`.
    static func text(of value: JournalSettings.Value) -> String {
        switch value {
        case .number(let number): return number.map(formatExactly) ?? "0"
        case .clockTime(let time): return "\"\(time?.description ?? "00:00")\""
        case .conditions(let conditions): return "[" + conditions.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + "]"
        case .model(let kind): return "\"\(kind?.rawValue ?? CaffeineModel.Kind.coffeeTracker.rawValue)\""
        }
    }

    /// Where a line's comment starts: the first `#` outside quotes.
    private static func commentStart(_ line: [UInt8]) -> Int? {
        var quote: UInt8?
        for (index, byte) in line.enumerated() {
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == 34 || byte == 39 {
                quote = byte
            } else if byte == 35 {
                return index
            }
        }
        return nil
    }

    /// A TOML integer or float in decimal (`5`, `+1_000`, `2.5`, `5e1`); nil for anything else.
    static func number(_ text: String) -> Double? {
        var digits = ""
        var previous: Character = " "
        for character in text {
            if character == "_" {
                // TOML allows `_` only between two digits.
                guard previous.isASCII, previous.isNumber else { return nil }
            } else {
                if previous == "_", !(character.isASCII && character.isNumber) { return nil }
                digits.append(character)
            }
            previous = character
        }
        guard previous != "_", let first = digits.first, first.isASCII, first.isNumber || first == "+" || first == "-",
            digits.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) })
        else { return nil }
        // A leading zero only as the whole integer part, as TOML says.
        let unsigned = digits.drop { $0 == "+" || $0 == "-" }
        if unsigned.hasPrefix("0"), unsigned.count > 1, let second = unsigned.dropFirst().first, second.isNumber { return nil }
        return Double(digits)
    }
}

/// Why a value cannot be a setting's: "it must be a number of mg, such as daily_limit_mg = 400".
public struct SettingsValueError: Error, Equatable {
    public let problem: String
}
