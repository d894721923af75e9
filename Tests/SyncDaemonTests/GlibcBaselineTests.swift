import GlibcBaseline
import Testing
import TestSupport

/// journal-syncd's own arc4random, hypot and hypotf, which keep it off glibc 2.35 and 2.36 (`make
/// dist` checks the binding): they answer as glibc's do, at the edges too.
@Suite(.onTestThreads) struct GlibcBaselineTests {
    @Test func hypotIsTheLengthOfTheHypotenuseWithoutOverflowOrUnderflow() {
        #expect(journal_hypot(3, 4) == 5)
        #expect(journal_hypot(-3, 4) == 5)
        #expect(journal_hypot(0, 0) == 0)
        let large = journal_hypot(1e300, 1e300), expected = 1e300 * 2.0.squareRoot()
        #expect(abs(large - expected) <= expected.ulp)
        let tiny = Double.leastNonzeroMagnitude
        #expect(journal_hypot(3 * tiny, 4 * tiny) == 5 * tiny)
        #expect(journal_hypot(.greatestFiniteMagnitude, 1) == .greatestFiniteMagnitude)
        #expect(journal_hypot(.infinity, .nan) == .infinity)
        #expect(journal_hypot(.nan, -.infinity) == .infinity)
        #expect(journal_hypot(.nan, 1).isNaN)
        #expect(journal_hypotf(3, 4) == 5)
        #expect(journal_hypotf(3e38, 4e38) == .infinity)
        let tinyFloat = Float.leastNonzeroMagnitude
        #expect(journal_hypotf(3 * tinyFloat, 4 * tinyFloat) == 5 * tinyFloat)
        #expect(journal_hypotf(-.infinity, .nan) == .infinity)
    }

    @Test func hypotAgreesWithThePlainFormulaWithinTwoUnitsInTheLastPlace() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            // Where the squares are normal doubles, the plain formula is itself within an ulp.
            let x = Double(sign: .plus, exponent: Int.random(in: -500...500, using: &generator),
                           significand: Double.random(in: 1..<2, using: &generator))
            let y = x * Double.random(in: 1e-3...1e3, using: &generator)
            let ours = journal_hypot(x, y), theirs = (x * x + y * y).squareRoot()
            #expect(abs(ours - theirs) <= 2 * theirs.ulp, "hypot(\(x), \(y))")
        }
    }

    @Test func arc4randomGivesEveryBitBothWays() {
        var seenSet: UInt32 = 0, seenClear: UInt32 = 0
        for _ in 0..<256 {
            let value = journal_arc4random()
            seenSet |= value
            seenClear |= ~value
        }
        #expect(seenSet == .max && seenClear == .max)
    }
}
