@_spi(_Unicode) import Swift

/// The skeleton of `text` (Unicode Technical Standard #39, section 4): `text` decomposed (NFD), each
/// scalar replaced by its prototype in Unicode's confusables.txt, and decomposed again. Texts with the
/// same skeleton look alike, whatever their scripts: "раураl" (Cyrillic but the l) and "paypal", "оld
/// laptop" (a Cyrillic о) and "old laptop". Default-ignorable scalars, which show nothing, are dropped
/// first, as the standard's later revisions do. A skeleton is for comparing, never for showing (1 and
/// I become l), and it does not fold case or every width form: fold a name (`NFKCCasefold`) first.
public func skeleton(_ text: String) -> String {
    var mapped = String.UnicodeScalarView()
    // The standard library's own decomposition (an SPI, as `_nfcCodeUnits` is for composing): no ICU.
    for scalar in text._nfd where !scalar.properties.isDefaultIgnorableCodePoint {
        ConfusablePrototypes.mappings.append(scalar, to: &mapped)
    }
    var decomposed = String.UnicodeScalarView()
    for scalar in String(mapped)._nfd { decomposed.append(scalar) }
    return String(decomposed)
}

/// The prototypes of confusables.txt (`table`, generated from its version 13.0.0).
enum ConfusablePrototypes {
    /// Looked up in place, line by line, only when a skeleton is taken.
    static let mappings = ScalarMappingTable(table)
}
