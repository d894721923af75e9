import Testing
import TestSupport

@testable import JournalKit

/// Amounts are read as decimal numbers only: what Swift's `Double(_:)` takes besides (hexadecimal,
/// `inf`, `nan`, a plus sign) is no amount anyone means.
@Suite(.onTestThreads) struct DecimalTextTests {
    @Test(arguments: [("64", 64.0), ("62.5", 62.5), (".5", 0.5), ("5.", 5), ("1e3", 1000), ("1.5e-05", 0.000015), ("0064", 64)])
    func readsDecimalNumbers(text: String, value: Double) {
        #expect(DecimalText.value(text) == value)
    }

    @Test(arguments: ["0x40", "0X40", "inf", "-inf", "nan", "+64", " 64", "64 ", "", "-", ".", "-.", "1e", "1e+", "6_4", "٦٤", "64mg", "1,5"])
    func refusesEverythingElse(text: String) {
        #expect(DecimalText.value(text) == nil)
    }

    @Test func negativeZeroIsNegativeAndRefusedAsCaffeine() throws {
        #expect(DecimalText.value("-0")?.sign == .minus)
        #expect(throws: InvalidRecordError.self) { try CaffeineDose.parse("-0") }
        #expect(throws: InvalidRecordError.self) { try CaffeineDose.parse("0x40") }
        #expect(try CaffeineDose.parse("0") == 0)
    }
}
