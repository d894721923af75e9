import JournalKit
import Testing
import TestSupport

@testable import JournalSync

/// What a name on a hub of files means, decided once for the folder, WebDAV and object-store hubs:
/// cards, key epochs' records, a log's segments and strays, and a page of a listing.
@Suite(.onTestThreads) struct HubLayoutTests {
    static let device = DeviceID(rawValue: "0f6e2c1a-9b7d-4e3f-8a21-5c4d3b2a1908")

    static func segment(_ first: Int64, _ last: Int64) -> String { SegmentName(first: first, last: last).fileName }

    @Test func aCardsNameIsItsDevicesIdAlone() {
        #expect(HubLayout.cardFileName(Self.device) == "0f6e2c1a-9b7d-4e3f-8a21-5c4d3b2a1908.card")
        #expect(HubLayout.device(ofCard: HubLayout.cardFileName(Self.device)) == Self.device)
        for name in [
            "0F6E2C1A-9B7D-4E3F-8A21-5C4D3B2A1908.card",  // another spelling of the same id names another file
            "0f6e2c1a-9b7d-4e3f-8a21-5c4d3b2a1908.card.tmp-1", "0f6e2c1a-9b7d-4e3f-8a21-5c4d3b2a1908", ".card", "notes.card",
            ".0f6e2c1a-9b7d-4e3f-8a21-5c4d3b2a1908.card",
        ] {
            #expect(HubLayout.device(ofCard: name) == nil, "\(name)")
        }
    }

    @Test func epochZeroHasNoRecord() {
        let first = KeyEpoch(number: 0, id: Array(repeating: 1, count: 16))
        let later = KeyEpoch(number: 3, id: Array(repeating: 2, count: 16))
        #expect(HubLayout.epoch(ofRecord: later.fileName) == later)
        #expect(HubLayout.epoch(ofRecord: first.fileName) == nil)
        #expect(HubLayout.epoch(ofRecord: "03-" + String(later.fileName.dropFirst(2))) == nil)
        #expect(HubLayout.epoch(ofRecord: later.fileName + ".tmp") == nil)
    }

    @Test func aLogIsItsSegmentsInOrderAndItsStrays() {
        let listed: [(String, LogEntry)] = [
            (Self.segment(10, 12), .file(fingerprint: "c")),
            (Self.segment(2, 9), .file(fingerprint: "b")),
            (Self.segment(1, 1), .file(fingerprint: "a")),
            ("notes.txt", .file(fingerprint: "n")),
            (Self.segment(13, 13), .notAFile),  // a folder named like a segment
            (Self.segment(14, 14), .gone),
            ("." + Self.segment(15, 15) + ".tmp-1", .file(fingerprint: "t")),
            (".DS_Store", .file(fingerprint: "d")),
            (Self.segment(13, 14) + " (conflict)", .file(fingerprint: "x")),
        ]
        var asked: [String] = []
        let log = DeviceLog(listing: listed, name: \.0) { listed in
            asked.append(listed.0)
            return listed.1
        }
        #expect(log.names == [SegmentName(first: 1, last: 1), SegmentName(first: 2, last: 9), SegmentName(first: 10, last: 12)])
        #expect(log.segments.map(\.fingerprint) == ["a", "b", "c"])
        #expect(log.strays == [Self.segment(13, 13), Self.segment(13, 14) + " (conflict)", "notes.txt"])
        // Only names that read as segments are looked at: a folder hub reads no stray's times.
        #expect(Set(asked) == [Self.segment(10, 12), Self.segment(2, 9), Self.segment(1, 1), Self.segment(13, 13), Self.segment(14, 14)])
    }

    @Test func aPageStartsPastTheLastNameInTheNamesOrder() {
        // An epoch's order, not its name's bytes: "10-…" comes after "9-…".
        let epochs = (1...12).map { KeyEpoch(number: UInt32($0), id: Array(repeating: UInt8($0), count: 16)) }
        let sorted = epochs.map(\.fileName).sorted { HubLayout.epoch(ofRecord: $0)! < HubLayout.epoch(ofRecord: $1)! }
        let page = { (after: KeyEpoch?, limit: Int) in
            ListingPage.of(sorted, after: after, limit: limit, name: HubLayout.epoch(ofRecord:)).map { HubLayout.epoch(ofRecord: $0)!.number }
        }
        #expect(page(nil, 3) == [1, 2, 3])
        #expect(page(epochs[8], 2) == [10, 11])
        #expect(page(epochs[10], 5) == [12])
        #expect(page(epochs[11], 5) == [])
        #expect(page(nil, 0) == [])
        #expect(page(epochs[1], .max) == Array(3...12))
        // A name that is not listed (gone since) is paged past as well as one that is.
        let gone = KeyEpoch(number: 5, id: Array(repeating: 0, count: 16))
        #expect(gone < epochs[4])
        #expect(page(gone, 2) == [5, 6])
        #expect(ListingPage.of([String](), after: epochs[0], limit: 3, name: HubLayout.epoch(ofRecord:)).isEmpty)
    }
}
