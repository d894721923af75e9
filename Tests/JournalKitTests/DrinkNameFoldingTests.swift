import Testing
import TestSupport

@testable import JournalKit

/// Issue 31: what a person types is folded fully, into names every journal takes.
@Suite(.onTestThreads) struct DrinkNameFoldingTests {
    /// Every name `canonical` makes is one every journal, this one and earlier ones, takes as a record,
    /// over every scalar whose case or compatibility form folding changes.
    @Test func everyCanonicalNameIsOneEveryJournalTakes() {
        var refused: [String] = []
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value),
                scalar.properties.changesWhenNFKCCaseFolded || scalar.properties.changesWhenLowercased
            else { continue }
            let name = DrinkName.canonical("a" + String(scalar))
            let scalars = name.unicodeScalars
            // What `check` refuses whatever the form (symbols, spaces, ignorables) is not in question here.
            guard scalars.allSatisfy({ DrinkNameFoldingTests.canNameADrink($0) }), scalars.count <= DrinkName.maximumLength,
                !name.hasSuffix("-")
            else { continue }
            if (try? DrinkName.check(name)) == nil { refused.append(String(value, radix: 16)) }
        }
        #expect(refused.isEmpty, "\(refused.prefix(20))")
    }

    /// The rule records are held to did not change: a built-in drink's name in a compatibility form,
    /// which earlier journals took from a peer, is still taken (`journal add` folds it to the catalog's).
    @Test func theRuleForRecordsIsTheEarlierOne() throws {
        try CustomDrink(name: "\u{1D41C}offee", caffeineMg: 10).validate()
        #expect(throws: InvalidRecordError.self) { try CustomDrink(name: "coffee", caffeineMg: 10).validate() }
        #expect(DrinkName.canonical("\u{1D41C}offee") == "coffee")
    }

    private static func canNameADrink(_ scalar: Unicode.Scalar) -> Bool {
        guard !scalar.properties.isDefaultIgnorableCodePoint else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber:
            return true
        default: return scalar == "-"
        }
    }
}
