import JournalKit
import PropertyBased
import Testing
import TestSupport

@testable import JournalSync

/// The key a person copies from one machine to another: read back exactly, and every slip of one
/// character refused, saying which kind of slip, never taken for another key.
@Suite(.onTestThreads) struct PrintedKeyTests {
    static let keysAndHubs = zip(Gen.uint8().array(of: 32), Gen.uint8().array(of: 16), Gen.uint8().array(of: 15))

    static func printed(_ bytes: [UInt8], hub: [UInt8], invitation: [UInt8]) -> (key: SyncKey, hubID: HubID, text: String) {
        let key = SyncKey(bytes: bytes)
        let hubID = HubID(rawValue: Hex.encode(hub))
        return (key, hubID, PrintedKey.text(of: key, hubID: hubID, invitation: invitation))
    }

    /// The symbols after `JK2-`, dashes left out.
    static func symbols(_ text: String) -> [UInt8] {
        Array(text.utf8.dropFirst(4)).filter { $0 != UInt8(ascii: "-") }
    }

    static func typo(_ symbols: [UInt8]) -> KeyTypo? {
        do {
            _ = try PrintedKey(parsing: "JK2-" + String(decoding: symbols, as: UTF8.self), source: "the test")
            return nil
        } catch {
            guard case .mistypedKey(_, let problem) = error else { return .notAKey }
            return problem
        }
    }

    @Test func aPrintedKeyIsReadBackAsTypedInAnyCaseWithOrWithoutDashes() async {
        await checkProperty(count: 200, input: Self.keysAndHubs) { bytes, hub, invitation in
            let (key, hubID, text) = Self.printed(bytes, hub: hub, invitation: invitation)
            #expect(text.utf8.count == 3 + 21 * 5)
            #expect(text.hasPrefix("JK2-" + PrintedKey.labelText(ofHub: hubID) + "-"))
            let slips = [
                text, text.lowercased(), text.replacingOccurrences(of: "-", with: " "), text.replacingOccurrences(of: "-", with: ""),
                " \(text)\n", text.replacingOccurrences(of: "0", with: "O").replacingOccurrences(of: "1", with: "l"),
            ]
            for typed in slips {
                let read = try PrintedKey(parsing: typed, source: "the test")
                #expect(read.key.hex == key.hex, "\(typed)")
                #expect(read.invitation == invitation, "\(typed)")
                #expect(read.hubLabel == PrintedKey.labelText(ofHub: hubID))
            }
        }
    }

    /// Every character replaced by every other a key may hold, every character left out or doubled,
    /// and every two neighbours swapped: each refused, as the slip it is.
    @Test func everySlipOfOneCharacterIsRefused() async {
        await checkProperty(count: 20, input: Self.keysAndHubs) { bytes, hub, invitation in
            let symbols = Self.symbols(Self.printed(bytes, hub: hub, invitation: invitation).text)
            #expect(symbols.count == 84)
            for position in symbols.indices {
                for other in CrockfordBase32.symbols where other != symbols[position] {
                    var typed = symbols
                    typed[position] = other
                    #expect(Self.typo(typed) == .checksum, "\(position)")
                }
                var missing = symbols
                missing.remove(at: position)
                #expect(Self.typo(missing) == .length(found: 83, expected: 84, version: 2))
                var doubled = symbols
                doubled.insert(symbols[position], at: position)
                #expect(Self.typo(doubled) == .length(found: 85, expected: 84, version: 2))
                var foreign = symbols
                foreign[position] = UInt8(ascii: "U")
                #expect(Self.typo(foreign) == .symbol(group: position / 4 + 1))
            }
            // The weighted sum alone, without the hash's luck, tells every one changed or swapped value.
            let values = symbols.prefix(80).map { CrockfordBase32.value(of: $0)! }
            let sum = Array(PrintedKey.check(values).prefix(2))
            for position in values.indices {
                for other in UInt8(0)..<32 where other != values[position] {
                    var changed = values
                    changed[position] = other
                    #expect(Array(PrintedKey.check(changed).prefix(2)) != sum, "\(position)")
                }
                if position < 79, values[position] != values[position + 1] {
                    var swapped = values
                    swapped.swapAt(position, position + 1)
                    #expect(Array(PrintedKey.check(swapped).prefix(2)) != sum, "\(position)")
                }
            }
            // Neighbours in the label, the key and the invitation; the check group holds the sum, not a position.
            for position in 0..<79 where symbols[position] != symbols[position + 1] {
                var swapped = symbols
                swapped.swapAt(position, position + 1)
                #expect(Self.typo(swapped) == .checksum, "\(position)")
            }
        }
    }

    @Test func theOlderFormsAreReadAndANewerFormIsRefusedByName() throws {
        let key = SyncKey()
        let read = try PrintedKey(parsing: key.hex + "\n", source: "the test")
        #expect(read.key.hex == key.hex && read.hubLabel == nil && read.invitation == nil)
        let withoutInvitation = try PrintedKey(parsing: PrintedKey.text(of: key, hubID: "hub", invitationOrNone: nil), source: "the test")
        #expect(withoutInvitation.key.hex == key.hex && withoutInvitation.hubLabel == PrintedKey.labelText(ofHub: "hub"))
        #expect(withoutInvitation.invitation == nil)
        let text = PrintedKey.text(of: key, hubID: "hub", invitation: Invitations.make().seed)
        #expect(throws: SyncError.mistypedKey(source: "the test", problem: .newerForm)) {
            try PrintedKey(parsing: "JK3" + text.dropFirst(3), source: "the test")
        }
        #expect(throws: SyncError.malformedKey(source: "the test")) { try PrintedKey(parsing: "not a key", source: "the test") }
        #expect(throws: SyncError.malformedKey(source: "the test")) { try PrintedKey(parsing: "", source: "the test") }
    }
}
