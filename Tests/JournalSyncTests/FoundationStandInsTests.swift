import Foundation
import FoundationStandIns
import PropertyBased
import Testing
import TestSupport

/// The functions that stand in for swift-corelibs Foundation's in the release journal-syncd (the
/// linker gives them PostgresNIO's calls) answer as Foundation's do, checked here against Foundation
/// itself, which the test build still links: ASCII punctuation and letters, as PostgresNIO looks for,
/// in text of those, a composed and a decomposed é, a lone accent (after `=` it makes one character
/// with it) and an emoji; every option they take, and any range of whole characters.
@Suite(.onTestThreads) struct FoundationStandInsTests {
    static let pieces = [",", "=", "2", "C", "3D", "a", "é", "e\u{301}", "\u{301}", "👍🏽", "x"]
    static let needles = [",", "=", "=2C", "=3D", "C", "3D", "a,", "x", "=="]
    static let text = Gen.int(in: 0...(pieces.count - 1)).array(of: 0...12).map { $0.map { pieces[$0] }.joined() }
    static let needle = Gen.int(in: 0...(needles.count - 1)).map { needles[$0] }
    static let options: [String.CompareOptions] = [[], .literal, .backwards, .anchored, [.literal, .backwards], [.backwards, .anchored], [.literal, .anchored]]

    @Test func rangeOfFindsWhatFoundationFinds() async {
        let input = zip(Self.text, Self.needle, Gen.int(in: 0...(Self.options.count - 1)), Gen.int(in: 0...12), Gen.int(in: 0...12))
        await checkProperty(count: 3_000, input: input) { text, needle, option, from, length in
            let mask = Self.options[option]
            let lower = text.index(text.startIndex, offsetBy: min(from, text.count))
            let upper = text.index(lower, offsetBy: min(length, text.distance(from: lower, to: text.endIndex)))
            let ours = text.standInRange(of: needle, options: mask, range: lower..<upper)
            let foundation = text.range(of: needle, options: mask, range: lower..<upper)
            #expect(ours == foundation, "\(text.debugDescription) \(needle.debugDescription) \(mask.rawValue) \(from) \(length)")
            #expect(text.standInRange(of: needle, options: mask) == text.range(of: needle, options: mask))
        }
    }

    @Test func replacingOccurrencesReplacesWhatFoundationReplaces() async {
        let input = zip(Self.text, Self.needle, Self.text, Gen.int(in: 0...2))
        await checkProperty(count: 3_000, input: input) { text, target, replacement, option in
            let mask = ([[], .literal, .anchored] as [String.CompareOptions])[option]
            #expect(
                text.standInReplacingOccurrences(of: target, with: replacement, options: mask)
                    == text.replacingOccurrences(of: target, with: replacement, options: mask),
                "\(text.debugDescription) \(target.debugDescription) \(replacement.debugDescription) \(mask.rawValue)")
        }
    }

    /// What PostgresNIO's SCRAM authentication does to a user name, on a Substring too.
    @Test func scramEscapingOfAUserName() {
        let name = "al,i=ce=2C"
        #expect(name.standInReplacingOccurrences(of: ",", with: "=2C").standInReplacingOccurrences(of: "=", with: "=3D") == "al=3D2Ci=3Dce=3D2C")
        let sub = name.dropFirst(2)
        #expect(sub.standInRange(of: "=") == sub.range(of: "="))
    }

    /// A server's SCRAM message is text it chose, and PostgresNIO unescapes its user name with three
    /// replacements: 300,000 characters of escapes are one pass, not a pass a match. One pass takes
    /// 0.4 s alone and up to 90 s waiting for a thread in the whole suite; a pass a match, 10^10
    /// steps, takes hours.
    @Test(.timeLimit(.minutes(10))) func aLongTextOfMatchesIsReplacedInOnePass() {
        let escaped = String(repeating: "=2C", count: 100_000)
        let unescaped = escaped.standInReplacingOccurrences(of: "=2C", with: ",")
        #expect(unescaped == String(repeating: ",", count: 100_000))
        #expect(escaped.standInRange(of: "=2C", options: .backwards)?.lowerBound == escaped.index(escaped.endIndex, offsetBy: -3))
    }

    /// The formats PostgresNIO uses, and more of the C ones, with Int arguments.
    @Test(arguments: [("%02x", [255]), ("%04x", [44]), ("%032x", [7]), ("%02d:%02d", [7, 5]), ("%d%%", [100]), ("plain", [])])
    func formatFormatsAsFoundationDoes(format: String, arguments: [Int]) {
        let values = arguments.map { $0 as CVarArg }
        #expect(String(standInFormat: format, locale: nil, arguments: values) == String(format: format, arguments: values))
    }

    @Test func aLongFormattedStringIsWhole() {
        let long = String(standInFormat: "%0300d", locale: nil, arguments: [42])
        #expect(long.count == 300 && long.hasSuffix("42") && long.hasPrefix("000"))
    }
}
