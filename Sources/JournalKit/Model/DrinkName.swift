/// What a drink may be called, in any script: 抹茶ラテ, café-crème, oat-latte. A name is kept as one
/// canonical text (`canonical`), which is what the catalog, the journal, sync and exports all hold,
/// so that a name typed in another case or width, with a ligature or with its accents decomposed
/// finds the same drink. Names earlier journals stored in the form their `canonical` had then
/// (`earlierCanonical`) stay valid, and are found by today's form.
public enum DrinkName {
    /// The longest name, in Unicode scalars of its canonical text (a count that does not change with
    /// Unicode versions, unlike the grapheme clusters a terminal draws).
    public static let maximumLength = 40

    /// The segment format from which a drink name may go beyond ASCII: journals before it refuse
    /// such a name, so a segment carrying one is in this format, which they refuse by its number and
    /// wait on (until they are updated) instead of passing the record over for good.
    public static let anyScriptFormat: UInt8 = 4

    /// The lowest segment format that carries `name`: `otherwise` for ASCII, `anyScriptFormat` beyond.
    public static func segmentFormat(of name: String, otherwise: UInt8) -> UInt8 {
        name.utf8.allSatisfy { $0 < 0x80 } ? otherwise : max(otherwise, anyScriptFormat)
    }

    /// The name `typed` means: its NFKC_Casefold (`NFKCCasefold`: case, width and compatibility forms
    /// folded, so ａ is a, ｶﾞ is ガ, ß is ss, ﬀ is ff, and ΣΟΦΙΑΣ and σοφιας are both σοφιασ), with İ as
    /// i (`DotAboveI`), and words (split at spaces, underscores and dashes) joined by single dashes.
    /// "Double Espresso", "double_espresso" and "ＤＯＵＢＬＥ-espresso" are one name.
    public static func canonical(_ typed: String) -> String {
        // ASCII, the usual case, needs none of the Unicode steps (and never reads their tables).
        if typed.utf8.allSatisfy({ $0 < 0x80 }) { return joinedWords(typed.lowercased()) }
        // Default-ignorable scalars stay, for `check` to refuse with the rule.
        let folded = NFKCCasefold.folded(typed, droppingIgnorables: false)
        // Lowercased too: case folding takes Cherokee to its capitals, where every journal has kept (and
        // `check` wants) the small letters; and the standard library knows letters newer than the table.
        return joinedWords(DotAboveI.removed(from: composed(folded.lowercased())))
    }

    /// Refuses what cannot be a drink's name: anything but letters (of any script), combining marks,
    /// digits and dashes, or one that does not start with a letter, is longer than `maximumLength`, or
    /// is not in the form every journal has stored names in (a record from an import or another device
    /// must already be): its `earlierCanonical` form, which every `canonical` name is in too. That a
    /// name is not canonical today is no reason to refuse it: earlier journals stored weiß-bier and
    /// ﬀ-latte, their peers and files still hold them, and every journal, old or new, must take the same
    /// records to converge. Where its dashes are is not checked either: earlier journals took `tea-`
    /// from an import.
    public static func check(_ name: String) throws(InvalidRecordError) {
        let scalars = name.unicodeScalars
        guard (1...maximumLength).contains(scalars.count), let first = scalars.first, isLetter(first),
            scalars.allSatisfy({
                // Default-ignorable ones (variation selectors, Hangul fillers) show nothing: a name of them looks blank.
                !$0.properties.isDefaultIgnorableCodePoint
                    && (isLetter($0) || isMark($0) || $0.properties.generalCategory == .decimalNumber || $0 == "-")
            }),
            // Scalar by scalar: Swift's == takes "café" composed and decomposed as one string.
            earlierCanonical(name).unicodeScalars.elementsEqual(joinedWords(name).unicodeScalars)
        else {
            throw InvalidRecordError(
                problem: "'\(TerminalText.quoted(name))' cannot name a drink: use 1 to \(maximumLength) letters (of any script), "
                    + "digits and dashes, starting with a letter, such as oat-latte or 抹茶ラテ", kind: .usage)
        }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// What `canonical` made of a name before it folded case and compatibility forms fully: composed,
    /// full-width and half-width forms as their usual width, lowercase (weiß-bier, ﬀ-latte, σοφιασ,
    /// i̇stanbul), words joined by dashes. The rule records are held to (`check`), unchanged so that
    /// every journal takes the same records; today's `canonical` names are all in this form too.
    static func earlierCanonical(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return joinedWords(name.lowercased()) }
        var folded = ""
        for scalar in composed(name).unicodeScalars { folded.unicodeScalars.append(widthFolded(scalar)) }
        // Lowercasing can decompose (İ is i and a combining dot), and folding half-width kana gives
        // combining voiced marks: composed again after both.
        return joinedWords(composed(folded.lowercased()))
    }

    /// `text` in Normalization Form C, from the standard library's own Unicode tables (no ICU).
    private static func composed(_ text: String) -> String { String(decoding: text._nfcCodeUnits, as: UTF8.self) }

    private static func joinedWords(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace || $0 == "_" || $0 == "-" }).concatenated(separator: "-")
    }

    /// Full-width ASCII as ASCII, half-width katakana as katakana (their voiced marks as combining
    /// ones, which composing joins to the letter), the ideographic space as a space.
    private static func widthFolded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x3000: return " "
        case 0xFF01...0xFF5E: return Unicode.Scalar(scalar.value - 0xFEE0)!
        case 0xFF65...0xFF9F: return Unicode.Scalar(halfWidthKatakana[Int(scalar.value - 0xFF65)])!
        default: return scalar
        }
    }

    /// U+FF65 to U+FF9F, in order, as their full-width forms (Unicode's <narrow> decompositions).
    private static let halfWidthKatakana: [UInt32] = [
        0x30FB, 0x30F2, 0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30E3, 0x30E5, 0x30E7, 0x30C3, 0x30FC,
        0x30A2, 0x30A4, 0x30A6, 0x30A8, 0x30AA, 0x30AB, 0x30AD, 0x30AF, 0x30B1, 0x30B3, 0x30B5, 0x30B7,
        0x30B9, 0x30BB, 0x30BD, 0x30BF, 0x30C1, 0x30C4, 0x30C6, 0x30C8, 0x30CA, 0x30CB, 0x30CC, 0x30CD,
        0x30CE, 0x30CF, 0x30D2, 0x30D5, 0x30D8, 0x30DB, 0x30DE, 0x30DF, 0x30E0, 0x30E1, 0x30E2, 0x30E4,
        0x30E6, 0x30E8, 0x30E9, 0x30EA, 0x30EB, 0x30EC, 0x30ED, 0x30EF, 0x30F3, 0x3099, 0x309A,
    ]
}
