import JournalKit
import Testing
import TestSupport

@testable import JournalSync

/// The rule every kind reads its cards and key epochs' records by: what cannot be used is that
/// record's failure alone, what is gone is left out, and a hub that fails fails the whole read (never
/// a record's refusal, which the engine would remember against it).
@Suite(.onTestThreads) struct HubRecordsTests {
    @Test func aRecordsOwnFailureIsItsAloneAndAGoneOneIsLeftOut() async throws {
        let read = try await HubRecords.read(["good", "fifo", "gone"]) { name -> [UInt8]? in
            switch name {
            case "good": return [1, 2, 3]
            case "fifo": throw SyncError.unusableFile(hub: "/hub", reason: "fifo is not a regular file")
            default: return nil
            }
        }
        #expect(Set(read.keys) == ["good", "fifo"])
        #expect(try read["good"]?.get() == [1, 2, 3])
        guard case .failure(let failure)? = read["fifo"] else {
            Issue.record("\(read)")
            return
        }
        #expect(failure.hubCondition == .unusableEntry)
    }

    @Test func aHubThatFailsFailsTheWholeRead() async throws {
        let failed = await #expect(throws: SyncError.self) {
            _ = try await HubRecords.read(["good", "unreadable"]) { name -> [UInt8]? in
                guard name == "good" else { throw SyncError.hubUnavailable(hub: "/hub", reason: "Input/output error", code: .errno(5)) }
                return [1]
            }
        }
        #expect(failed?.hubCondition == .unreachable)
    }
}
