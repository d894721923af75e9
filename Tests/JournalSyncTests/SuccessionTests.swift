import JournalKit
import Testing
import TestSupport

@testable import JournalSync

/// A hand-over (`journal sync new-device`) is its maker's word: it goes with its maker when the maker
/// is shut out, however long the chain of hand-overs, and one device hands over to one device only.
@Suite(.onTestThreads) struct SuccessionTests {
    static func card(_ number: Int, succeeding old: Int? = nil) -> DeviceCard {
        DeviceCard(
            device: id(number), name: "d\(number)", agreementKey: [], signingKey: [UInt8(number)], epoch: 0,
            writtenAt: Timestamp(milliseconds: 0), publishedAt: nil, syncedAt: nil,
            succeeds: old.map { DeviceCard.Succession(device: id($0), signature: []) })
    }

    static func id(_ number: Int) -> DeviceID { DeviceID(rawValue: "00000000-0000-4000-8000-0000000000\(10 + number)") }

    @Test func whoAShutOutDeviceHandedOverToIsShutOutWithIt() {
        let cards = [Self.card(1), Self.card(2), Self.card(3, succeeding: 2), Self.card(4, succeeding: 3), Self.card(5, succeeding: 1)]
        #expect(VouchGraph.withSuccessors([Self.id(2)], cards: cards) == [Self.id(2), Self.id(3), Self.id(4)])
        #expect(VouchGraph.withSuccessors([], cards: cards).isEmpty)
    }
}
