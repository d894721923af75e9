/// Unicode's NFKC_Casefold (`toNFKC_Casefold`: each scalar replaced by its NFKC_CF property, then the
/// whole composed, NFC): case, width and compatibility forms folded, so that "ＳＯＦＩＡ", "Sofia" and
/// "ΣΟΦΙΑΣ"/"σοφιας" each compare as one text, ß as ss and ﬀ as ff. From a table of its own
/// (`NFKCCasefoldTable.swift`, generated from Unicode 14): the everyday program links no ICU.
public enum NFKCCasefold {
    /// The NFKC_CF property (`table`), looked up in place, only when a text beyond ASCII is folded.
    static let mappings = ScalarMappingTable(table)

    /// `text` folded. Default-ignorable scalars (zero-width joiners, variation selectors), which
    /// NFKC_Casefold removes, are kept when `droppingIgnorables` is false: a drink name refuses them
    /// (`DrinkName.check`) rather than silently lose what its author cannot see.
    public static func folded(_ text: String, droppingIgnorables: Bool = true) -> String {
        var mapped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !(droppingIgnorables && scalar.properties.isDefaultIgnorableCodePoint) {
            mappings.append(scalar, to: &mapped)
        }
        return String(decoding: String(mapped)._nfcCodeUnits, as: UTF8.self)
    }
}
