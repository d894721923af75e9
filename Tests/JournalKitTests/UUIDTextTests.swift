import Testing
import TestSupport

@testable import JournalKit

@Suite(.onTestThreads) struct UUIDTextTests {
    /// The byte check answers as parsing and printing back does, for texts that are UUIDs, nearly are
    /// (one character off, uppercase, a dash moved, one too many or too few), or are not at all.
    @Test func isCanonicalAnswersAsParsingAndPrintingBack() {
        var random = SeededGenerator.fromEnvironment()
        let alphabet = Array("0123456789abcdefABCDEF-g {}")
        var canonicalSeen = 0
        for _ in 0..<20_000 {
            var text = Array(UUIDText.random())
            switch Int.random(in: 0..<6, using: &random) {
            case 0: break
            case 1: text[Int.random(in: 0..<text.count, using: &random)] = alphabet.randomElement(using: &random)!
            case 2: text = Array(String(text).uppercased())
            case 3: text.remove(at: Int.random(in: 0..<text.count, using: &random))
            case 4: text.insert(alphabet.randomElement(using: &random)!, at: Int.random(in: 0...text.count, using: &random))
            default: text = (0..<36).map { _ in alphabet.randomElement(using: &random)! }
            }
            let candidate = String(text)
            let expected = UUIDText.canonical(candidate) == candidate
            if expected { canonicalSeen += 1 }
            #expect(UUIDText.isCanonical(candidate) == expected, "\(candidate); \(random.replay)")
        }
        #expect(canonicalSeen > 1000, "too few canonical texts tried")
    }
}
