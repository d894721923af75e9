import Testing
import TestSupport

@testable import JournalKit

/// The generated Unicode tables (`Tests/UnicodeTables/generate.py`), checked against known pairs and
/// against the standard library's own Unicode properties.
@Suite(.onTestThreads) struct UnicodeTableTests {
    @Test(arguments: [
        ("ß", "ss"), ("ẞ", "ss"), ("\u{FB00}", "ff"), ("\u{FB03}", "ffi"), ("Σ", "σ"), ("ς", "σ"), ("İ", "i\u{307}"),
        ("Ａ", "a"), ("ｶﾞ", "ガ"), ("\u{3314}", "キロ"), ("ǅ", "dž"), ("½", "1⁄2"), ("ℌ", "h"), ("\u{13A0}", "\u{13A0}"),
        ("\u{AB70}", "\u{13A0}"), ("Ⅷ", "viii"), ("Café", "café"), ("Cafe\u{301}", "café"), ("\u{3164}", "\u{3164}"),
    ])
    func nfkcCasefold(text: String, folded: String) {
        #expect(NFKCCasefold.folded(text, droppingIgnorables: false).unicodeScalars.elementsEqual(folded.unicodeScalars))
    }

    @Test func nfkcCasefoldDropsDefaultIgnorablesWhenAsked() {
        #expect(NFKCCasefold.folded("x\u{200D}y\u{FE0F}") == "xy")
        #expect(NFKCCasefold.folded("x\u{200D}y", droppingIgnorables: false).unicodeScalars.count == 3)
    }

    /// Every scalar of Unicode 14 or before (the table's version) that the standard library says
    /// NFKC_Casefold changes is in the table, and no other, default-ignorable ones aside (kept).
    @Test func theNFKCCasefoldTableAgreesWithTheStandardLibrary() {
        var disagreements: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age, age.major < 15,
                !scalar.properties.isDefaultIgnorableCodePoint
            else { continue }
            var mapped = String.UnicodeScalarView()
            NFKCCasefold.mappings.append(scalar, to: &mapped)
            let changes = !mapped.elementsEqual([scalar])
            if changes != scalar.properties.changesWhenNFKCCaseFolded { disagreements.append(String(value, radix: 16)) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    /// The binary search finds every line of both tables as a plain reading of them does, runs and
    /// the scalars between entries included.
    @Test func lookupsAgreeWithAPlainReadingOfTheTables() {
        for (table, mappings) in [(NFKCCasefold.table, NFKCCasefold.mappings), (ConfusablePrototypes.table, ConfusablePrototypes.mappings)] {
            var expected: [UInt32: [UInt32]] = [:]
            for line in table.description.split(separator: "\n") {
                let fields = line.split(separator: ":", omittingEmptySubsequences: false)
                let source = fields[0].split(separator: "+")
                let targets = fields[1].split(separator: " ").map { UInt32($0, radix: 16)! }
                let first = UInt32(source[0], radix: 16)!
                let count = source.count > 1 ? UInt32(source[1], radix: 16)! : 1
                for offset in 0..<count { expected[first + offset] = count > 1 ? [targets[0] + offset] : targets }
            }
            #expect(expected.count > 6000)
            var wrong: [UInt32] = []
            for value in expected.keys.flatMap({ [$0 - 1, $0, $0 + 1] }) {
                guard let scalar = Unicode.Scalar(value) else { continue }
                var mapped = String.UnicodeScalarView()
                mappings.append(scalar, to: &mapped)
                if !mapped.map(\.value).elementsEqual(expected[value] ?? [value]) { wrong.append(value) }
            }
            #expect(wrong.isEmpty, "\(wrong.prefix(10).map { String($0, radix: 16) })")
        }
    }

    @Test(arguments: [
        ("раураl", "paypal"), ("оld laptop", "old laptop"), ("\u{435}spresso", "espresso"), ("ıstanbul", "istanbul"),
        ("\u{FB00}-latte", "ff-latte"), ("m\u{430}te", "mate"), ("c1a", "cla"), ("\u{2010}", "-"), ("x\u{200B}y", "xy"),
    ])
    func lookalikesShareASkeleton(text: String, lookalike: String) {
        #expect(skeleton(text) == skeleton(lookalike))
    }

    @Test func differentWordsHaveDifferentSkeletons() {
        #expect(skeleton("latte") != skeleton("matte"))
        #expect(skeleton("istanbul") != skeleton("i\u{307}stanbul"), "confusables.txt gives the combining dot no prototype")
        // confusables.txt 13.0 maps some full-width letters (ｌ, ａ, ｐ) but not ｔ: names are folded before their skeleton is taken.
        #expect(skeleton("ｌａｐｔｏｐ") != skeleton("laptop"))
        #expect(skeleton(NFKCCasefold.folded("ｌａｐｔｏｐ")) == skeleton("laptop"))
    }
}
