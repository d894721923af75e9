import Foundation
import Testing
import TestSupport

@testable import JournalKit

/// A drink can be dated at most 5 minutes after the now it was entered at, whoever entered it: a
/// person, against the program's clock, or another device, against the clock reading its record carries.
@Suite(.onTestThreads) struct EntryRulesTests {
    let now = Timestamp(milliseconds: 1_795_262_400_000)

    /// A record of a drink at `time`, written when its device's clock read `written`, as a peer's arrives.
    func peerRecord(at time: Timestamp, writtenAt written: Timestamp) -> String {
        let clock = HybridTimestamp(milliseconds: written.milliseconds, counter: 7)
        return #"["11111111-1111-4111-8111-111111111111", "espresso", 64, \#(time.milliseconds), null, 0, "\#(clock.rawValue)", "22222222-2222-4222-8222-222222222222"]"#
    }

    @Test(arguments: [(-3_600_000, true), (0, true), (300_000, true), (301_000, false), (86_400_000, false)])
    func aPersonAndAnotherDeviceAreHeldToOneRule(millisecondsAhead: Int64, allowed: Bool) throws {
        let time = now + .milliseconds(millisecondsAhead)
        // The person's way in: a time typed at the command line.
        #expect((try? TimeExpression(now: now).parse(LocalTime.iso8601(time))) == (allowed ? time : nil))
        // Another device's: a record whose clock read `now` when it was written.
        let decoded = Result { try JSONDecoder().decode(Replicated<Drink>.self, from: Data(peerRecord(at: time, writtenAt: now).utf8)) }
        switch decoded {
        case .success(let record): #expect(allowed && record.payload.consumedAt == time)
        case .failure(let error):
            #expect(!allowed)
            #expect("\(error)".contains("more than 5 minutes after it was written"), "\(error)")
        }
    }

    /// What decides is the writer's clock, never the reader's: a record dated in 2199 by a device whose
    /// clock said 2199 passes, as on every device (its drink counts only when its time comes).
    @Test func theRecordsOwnClockIsItsNow() throws {
        let far = Timestamp(milliseconds: 7_258_000_000_000)
        let record = try JSONDecoder().decode(Replicated<Drink>.self, from: Data(peerRecord(at: far, writtenAt: far).utf8))
        #expect(record.payload.consumedAt == far)
    }
}
