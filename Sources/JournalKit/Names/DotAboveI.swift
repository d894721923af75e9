/// The Turkish capital İ, folded as Turkish and Azerbaijani lowercase it: to i. Unicode's case folding
/// (and `lowercased()`) makes it i followed by a combining dot above, a text no one types, so that
/// "İstanbul-çay" and "istanbul-çay" would be two names that differ by a dot an i already has. The
/// confusable skeleton does not join them either: confusables.txt gives the combining dot no
/// prototype. A combining dot above right after an i is dropped, which also finds what earlier
/// journals stored ("i̇stanbul-çay", from lowercasing). The dotless ı stays a letter of its own; its
/// skeleton is i's, so a name with it cannot pass for one with i (`DrinkCatalog.refuseLookalike`).
enum DotAboveI {
    /// `text` (composed, folded) without a combining dot above after an i, composed again.
    static func removed(from text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.contains("\u{307}") else { return text }
        var kept = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in scalars {
            if !(scalar == "\u{307}" && previous == "i") { kept.append(scalar) }
            previous = scalar
        }
        // The dot may have stood between the i and an accent it now takes: í.
        return String(decoding: String(kept)._nfcCodeUnits, as: UTF8.self)
    }
}
