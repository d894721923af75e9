import Foundation
import JournalKit
import PropertyBased
import Testing
import TestSupport

@testable import JournalSync

/// Device cards: each device says on the hub who it is (name, public keys) and when it last published
/// and synced; only that device can write a card that is taken, and no card can put anything on a
/// person's terminal.
@Suite(.onTestThreads) struct DeviceCardTests {
    /// The keys a card is opened with: `key` for any epoch.
    static func only(_ key: SyncKey) -> (KeyEpoch) -> SyncKey? { { _ in key } }

    static func card(_ device: DeviceID, keys: DeviceKeys, name: String = "laptop", at milliseconds: Int64 = 1_000) -> DeviceCard {
        DeviceCard(
            device: device, name: name, agreementKey: keys.publicKeys.agreement, signingKey: keys.publicKeys.signing, epoch: 0,
            writtenAt: Timestamp(milliseconds: milliseconds), publishedAt: nil, syncedAt: Timestamp(milliseconds: milliseconds))
    }

    static func refusal(_ body: () throws(CardError) -> DeviceCard) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aCardOpensAsItWasWrittenOnlyInItsOwnPlaceWithTheHubsKey() throws {
        let keys = DeviceKeys()
        let key = SyncKey()
        let device = DeviceID(rawValue: UUIDText.random())
        let card = Self.card(device, keys: keys, name: "Küchen-PC 台所")
        let sealed = try CardSeal.seal(card, keys: keys, epoch: .first, key: key, hubID: "hub-1")
        #expect(try CardSeal.open(sealed, keys: Self.only(key), hubID: "hub-1", device: device) == card)
        let elsewhere = DeviceID(rawValue: UUIDText.random())
        #expect(Self.refusal { () throws(CardError) in try CardSeal.open(sealed, keys: Self.only(key), hubID: "hub-1", device: elsewhere) }?
            .contains("does not open") == true)
        #expect(Self.refusal { () throws(CardError) in try CardSeal.open(sealed, keys: Self.only(key), hubID: "hub-2", device: device) } != nil)
        #expect(Self.refusal { () throws(CardError) in try CardSeal.open(sealed, keys: Self.only(SyncKey()), hubID: "hub-1", device: device) } != nil)
        var newer = sealed
        newer[4] = 3
        #expect(Self.refusal { () throws(CardError) in try CardSeal.open(newer, keys: Self.only(key), hubID: "hub-1", device: device) }?
            .contains("newer journal") == true)
    }

    /// Times no device writes (before 1970, after 2999, Int64's ends) would overflow "how long ago":
    /// refused, even signed by the device itself.
    @Test func aCardWithATimeNoClockGivesIsRefused() throws {
        let key = SyncKey()
        let keys = DeviceKeys()
        let device = DeviceID(rawValue: UUIDText.random())
        for milliseconds in [Int64.min, -1, 32_503_680_000_001, Int64.max] {
            var card = Self.card(device, keys: keys)
            card.syncedAt = Timestamp(milliseconds: milliseconds)
            let sealed = try CardSeal.seal(card, keys: keys, epoch: .first, key: key, hubID: "hub")
            #expect(Self.refusal { () throws(CardError) in try CardSeal.open(sealed, keys: Self.only(key), hubID: "hub", device: device) }?
                .contains("time") == true)
        }
    }

    /// A member holds the hub's key, so it can seal a card; it cannot sign one with another device's key.
    @Test func aCardSignedByAnotherKeyThanTheOneItNamesIsRefused() throws {
        let key = SyncKey()
        let device = DeviceID(rawValue: UUIDText.random())
        let victim = DeviceKeys()
        let forger = DeviceKeys()
        let claimed = Self.card(device, keys: victim)
        let forged = try CardSeal.seal(claimed, keys: forger, epoch: .first, key: key, hubID: "hub")
        #expect(Self.refusal { () throws(CardError) in try CardSeal.open(forged, keys: Self.only(key), hubID: "hub", device: device) }?
            .contains("signature does not verify") == true)
    }

    /// Whatever a card's name holds, it is refused before it can reach a terminal; names in any script are taken.
    @Test func aNameThatActsOnATerminalOrHidesIsRefusedEvenSigned() async {
        let key = SyncKey()
        let keys = DeviceKeys()
        let device = DeviceID(rawValue: UUIDText.random())
        let refusedScalars: [Unicode.Scalar] = ["\u{1B}", "\u{7}", "\n", "\u{202E}", "\u{200B}", "\u{2028}", "\u{E000}", "\u{00A0}"]
        let input = zip(Gen.int(in: 0...(refusedScalars.count - 1)), Gen.int(in: 0...20), Gen.int(in: 1...20))
        await checkProperty(count: 100, input: input) { which, position, length in
            var scalars = Array(String(repeating: "ab", count: length).unicodeScalars)
            scalars.insert(refusedScalars[which], at: min(position, scalars.count))
            var name = String.UnicodeScalarView()
            name.append(contentsOf: scalars)
            let text = String(name)
            #expect(DeviceName.problem(text) != nil)
            let sealed = try! CardSeal.seal(Self.card(device, keys: keys, name: text), keys: keys, epoch: .first, key: key, hubID: "hub")
            #expect(Self.refusal { () throws(CardError) in try CardSeal.open(sealed, keys: Self.only(key), hubID: "hub", device: device) } != nil)
        }
        for good in ["laptop", "work laptop", "抹茶-PC", "café", "Ноутбук", "pi4 (garage)"] { #expect(DeviceName.problem(good) == nil) }
        let blanks = ["\u{3164}", "\u{115F}", "\u{FFA0}", "\u{2800}", "a\u{034F}b", "e" + String(repeating: "\u{301}", count: 200)]
        for bad in ["", "two  spaces", String(repeating: "x", count: 41), UUIDText.random()] + blanks { #expect(DeviceName.problem(bad) != nil, "\(bad.unicodeScalars.map(\.value))") }
    }

    @Test func cardsAreReplacedWholeAndListedByDevice() async throws {
        for flavor in HubFlavor.allCases {
            try await withTemporaryDirectory { folder in
                let hub = try await flavor.newPlace(in: folder).make(key: SyncKey(), shared: false)
                #expect(try await hub.allCards().isEmpty)
                let (a, b) = (DeviceID(rawValue: UUIDText.random()), DeviceID(rawValue: UUIDText.random()))
                try await hub.writeCard([1, 2, 3], of: a)
                try await hub.writeCard([4], of: b)
                try await hub.writeCard([5, 6], of: a)
                let cards = try await hub.allCards().mapValues { try $0.get() }
                #expect(cards == [a: [5, 6], b: [4]], "\(flavor)")
                await hub.close()
            }
        }
    }

    /// Two machines learn each other's names at their syncs; a rename reaches the other at its next.
    @Test func machinesLearnEachOthersNamesAndARenameTravels() async throws {
        for flavor in HubFlavor.allCases {
            try await withTemporaryDirectory { folder in
                let key = SyncKey()
                let place = try flavor.newPlace(in: folder)
                let clock = SteppingClock()
                let a = try await Machine.make(folder, name: "a", place: place, key: key, clock: clock)
                let b = try await Machine.make(folder, name: "b", place: place, key: key, clock: clock)
                _ = try await a.store.add(drink())
                try await a.sync()
                try await b.sync()
                try await a.sync()
                let host = DeviceName.host(fallback: a.store.deviceID).text
                // One host: the second to write its first card takes the name with a number.
                #expect(try await names(a) == [a.store.deviceID: host, b.store.deviceID: host + " 2"], "\(flavor)")
                try await b.engine.rename(to: DeviceName("garage pi"))
                try await a.sync()
                #expect(try await names(a)[b.store.deviceID] == "garage pi", "\(flavor)")
                let bOnA = try #require(try await a.store.deviceCards(hubID: a.engine.hub.id).first { $0.device == b.store.deviceID })
                #expect(bOnA.syncedAt != nil && bOnA.publishedAt == nil)
                #expect(try await a.store.deviceCards(hubID: a.engine.hub.id).first { $0.device == a.store.deviceID }?.publishedAt != nil)
                await #expect(throws: SyncError.deviceNameTaken(name: "Garage Pi", by: b.store.deviceID)) {
                    try await a.engine.rename(to: DeviceName("Garage Pi"))
                }
                await a.engine.close()
                await b.engine.close()
            }
        }
    }

    /// Someone holding the hub's key writes a card under B's id with keys of their own (to be taken for
    /// B, or to receive B's hub keys later): every device that knows B refuses it, and keeps B's.
    @Test func aCardUnderAKnownDeviceWithOtherKeysIsRefusedAndTheKnownOneKept() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let clock = SteppingClock()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key, clock: clock)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key, clock: clock)
            try await b.engine.rename(to: DeviceName("desk"))
            try await a.sync()
            let impostor = DeviceKeys()
            let forged = Self.card(b.store.deviceID, keys: impostor, name: "desk (new)", at: 9_999_999_999_999)
            try await a.engine.hub.writeCard(try CardSeal.seal(forged, keys: impostor, epoch: .first, key: key, hubID: a.engine.hub.id), of: b.store.deviceID)
            let report = try await a.sync()
            #expect(report.setAside.map(\.name) == ["card"])
            #expect(report.setAside.first?.reason.contains("other keys") == true)
            #expect(try await names(a)[b.store.deviceID] == "desk")
            // Said once: the next sync finds it again and says nothing.
            #expect(try await a.sync().setAside.isEmpty)
            await a.engine.close()
        }
    }

    /// A card that is a FIFO, a socket, a link, huge or garbage holds back nothing but itself.
    @Test func anUnusableCardFileIsThatCardsProblemAlone() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key)
            let cards = folder + "/hub/journal-hub-v1/cards"
            try FileManager.default.createDirectory(atPath: cards, withIntermediateDirectories: true)
            let (fifo, huge, garbage, link, socket) = (UUIDText.random(), UUIDText.random(), UUIDText.random(), UUIDText.random(), UUIDText.random())
            #expect(mkfifo(cards + "/\(fifo).card", 0o600) == 0)
            #expect(plantSocket(at: cards + "/\(socket).card"))
            FileManager.default.createFile(atPath: cards + "/\(huge).card", contents: Data(count: 1 << 20))
            FileManager.default.createFile(atPath: cards + "/\(garbage).card", contents: Data("JCRD\u{1}nonsense".utf8))
            try FileManager.default.createSymbolicLink(atPath: cards + "/\(link).card", withDestinationPath: "/etc/passwd")
            _ = try await a.store.add(drink())
            let report = try await a.sync()
            #expect(report.published == 1)
            #expect(Set(report.setAside.map(\.device.rawValue)) == [fifo, huge, garbage, link, socket])
            #expect(report.setAside.allSatisfy { $0.name == "card" && $0.outcome == .passedOver })
            await a.engine.close()
        }
    }

    /// Another user of a shared folder makes `cards` a file: the cards cannot be read or written, which
    /// is said, and the drinks still go up. Readers wait for the card that checks their signatures, as
    /// for a segment on its way, and take them once it comes.
    @Test func cardsThatCannotBeReachedDoNotStopTheDrinks() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            FileManager.default.createFile(atPath: folder + "/hub/journal-hub-v1/cards", contents: Data("not a folder".utf8))
            _ = try await a.store.add(drink())
            let published = try await a.sync()
            #expect(published.published == 1)
            #expect(published.setAside.map(\.name) == [a.store.deviceID.rawValue + ".card"], "\(published.setAside)")
            let waiting = try await b.sync()
            #expect(waiting.received == 0 && waiting.failures.isEmpty)
            #expect(waiting.waiting.map(\.device) == [a.store.deviceID])
            // Said once.
            #expect(try await a.sync().setAside.isEmpty)
            try FileManager.default.removeItem(atPath: folder + "/hub/journal-hub-v1/cards")
            try await a.sync()
            let arrived = try await b.sync()
            #expect(arrived.received == 1 && arrived.waiting.isEmpty)
        }
    }

    /// Two processes (the daemon and `journal sync`) making a device's keys at one moment end with one
    /// pair, which both use.
    @Test func keysMadeByTwoProcessesAtOnceAreOnePair() async throws {
        try await withTemporaryDirectory { folder in
            for round in 0..<20 {
                let path = folder + "/\(round)/device.key"
                let made = await withTaskGroup(of: DevicePublicKeys?.self) { group in
                    for _ in 0..<4 { group.addTask { try? DeviceKeys.loadOrMake(at: path).publicKeys } }
                    return await group.reduce(into: [DevicePublicKeys?]()) { $0.append($1) }
                }
                #expect(made.allSatisfy { $0 != nil } && Set(made.compactMap { $0 }).count == 1, "round \(round): \(made)")
            }
        }
    }

    /// A device's older card put back on the hub (one from before it signed, replayed by a member) does
    /// not make readers forget from where the device signs: an unsigned segment a member then writes
    /// into its log is still refused.
    @Test func aReplayedCardDoesNotLiftTheSignatureRule() async throws {
        try await withTemporaryDirectory { folder in
            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key)
            let b = try await Machine.make(folder, name: "b", hubFolder: folder + "/hub", key: key)
            _ = try await a.store.add(drink())
            try await a.sync()
            #expect(try await b.sync().received == 1)
            let hub = a.engine.hub
            let old = Self.card(a.store.deviceID, keys: a.engine.deviceKeys, at: 1_000)
            try await hub.writeCard(try CardSeal.seal(old, keys: a.engine.deviceKeys, epoch: .first, key: key, hubID: hub.id), of: a.store.deviceID)
            let name = SegmentName(first: 2, last: 2)
            let unsigned = try SegmentSeal.sealUnsigned(SegmentCodec.encodeUnsigned([]).bytes, format: 1, key: key, device: a.store.deviceID, name: name)
            _ = try await hub.write(unsigned, as: name, of: a.store.deviceID)
            let report = try await b.sync()
            #expect(report.failures.map(\.segment) == [name.fileName], "\(report)")
            #expect(report.failures.first?.reason.contains("it is not signed") == true)
            #expect(try await b.store.deviceCard(of: a.store.deviceID, hubID: hub.id)?.signedFrom == 1)
        }
    }

    /// A card read late, or put back by someone (a replay), never replaces a later one.
    @Test func anOlderCardNeverReplacesALaterOne() async throws {
        try await withTemporaryDirectory { folder in
            let store = try await JournalStore(path: folder + "/j.db")
            let keys = DeviceKeys()
            let device = DeviceID(rawValue: UUIDText.random())
            try await store.keepDeviceCard(Self.card(device, keys: keys, name: "new", at: 2_000), hubID: "hub")
            try await store.keepDeviceCard(Self.card(device, keys: keys, name: "old", at: 1_000), hubID: "hub")
            #expect(try await store.deviceCards(hubID: "hub").map(\.name) == ["new"])
        }
    }

    /// The key file is this device's alone, and a replaced one is refused rather than shown to the
    /// others as a new device under an old id.
    @Test func theDeviceKeysAreKeptPrivateAndAReplacedFileIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let path = folder + "/config/device.key"
            let made = try DeviceKeys.loadOrMake(at: path)
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
            #expect(try DeviceKeys.loadOrMake(at: path).publicKeys == made.publicKeys)
            chmod(path, 0o644)
            #expect(throws: UnprotectedFileError.self) { _ = try DeviceKeys.loadOrMake(at: path) }
            chmod(path, 0o600)
            try "journal device keys v1\nagreement 00\n".write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o600)
            #expect(throws: SyncError.malformedDeviceKeys(path: path)) { _ = try DeviceKeys.loadOrMake(at: path) }

            let key = SyncKey()
            let a = try await Machine.make(folder, name: "a", hubFolder: folder + "/hub", key: key)
            try await a.sync()
            let replaced = SyncEngine(store: a.store, hub: a.engine.hub, key: key, deviceKeys: DeviceKeys(path: "/keys"))
            _ = try await a.store.add(drink())
            await #expect(throws: SyncError.deviceKeysReplaced(path: "/keys")) { _ = try await replaced.sync() }
            // Refused before anything went up: the others would take it for a stranger's.
            #expect(try await a.engine.hub.log(of: a.store.deviceID).segments.isEmpty)
        }
    }

    func names(_ machine: Machine) async throws -> [DeviceID: String] {
        var names: [DeviceID: String] = [:]
        for card in try await machine.store.deviceCards(hubID: machine.engine.hub.id) { names[card.device] = card.name }
        return names
    }
}

/// A clock that moves a second forward at every reading: cards written one after another are told apart.
final class SteppingClock: JournalClock, @unchecked Sendable {
    private let lock = NSLock()
    private var milliseconds: Int64 = 1_795_262_400_000

    func now() -> Timestamp {
        lock.withLock {
            milliseconds += 1_000
            return Timestamp(milliseconds: milliseconds)
        }
    }
}
