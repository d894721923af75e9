import JournalKit

/// The devices of the hub, as `journal sync devices` lists them: each with its name and when it last
/// published and synced (from its card), this device marked. A device with a log but no card is one
/// on a journal from before cards, or one whose card was refused.
public struct DeviceList: Sendable {
    public struct Entry: Sendable {
        public let device: DeviceID
        public let isThisDevice: Bool
        /// Its card, when one was taken; nil when none was (see `cardProblem`).
        public let card: DeviceCard?
        /// Why its card on the hub was refused, when it was.
        public let cardProblem: String?
        /// When it was revoked, and by which device (its name): nil for a member.
        public var revoked: (by: String, at: Timestamp)?
        /// How it stands in the hub; nil when the hub could not be read.
        public var standing: MemberStanding?

        /// The name to show: the card's; for this device before its first card, the host name it will have.
        public var shownName: String {
            card?.name ?? (isThisDevice ? DeviceName.host(fallback: device).text : DeviceList.noCard)
        }
    }

    /// What stands for the name of a device that has no card.
    public static let noCard = "(no card)"

    public private(set) var entries: [Entry]
    /// Cards on the hub refused for devices that have no log and no card kept here: someone's junk, or a
    /// device whose every card was refused. By device, with why.
    public let refusedCards: [DeviceID: String]
    /// Why the hub could not be read, when it could not: the list is then what this journal last knew.
    public let hubProblem: String?
    public let at: Timestamp

    /// The list for `store`, with the cards read afresh from the hub when it can be reached.
    public static func gather(_ store: JournalStore, hubs: HubRegistry) async throws -> DeviceList {
        guard let joined = try await store.hub() else { throw SyncError.notJoined }
        var refused: [DeviceID: String] = [:]
        var logs: [DeviceID] = []
        var hubProblem: String?
        var revoked: [DeviceID: (by: String, at: Timestamp)] = [:]
        var standings: [DeviceID: MemberStanding] = [:]
        do {
            try await SyncSetup.withEngine(for: store, hubs: hubs) { engine in
                refused = try await engine.readCards()
                for (device, record) in await engine.revocations() {
                    revoked[device] = (await engine.names(of: [record.maker])[0], record.madeAt)
                }
                try await engine.hub.refresh(after: try await engine.positionsKnown())
                logs = try await engine.hub.devices()
                for card in try await store.deviceCards(hubID: joined.hubID) { standings[card.device] = await engine.standing(of: card.device) }
            }
        } catch {
            hubProblem = failureMessage(error)
        }
        var list = try await from(store, hubID: joined.hubID, logs: logs, refused: refused, hubProblem: hubProblem)
        for index in list.entries.indices {
            list.entries[index].revoked = revoked[list.entries[index].device]
            list.entries[index].standing = list.entries[index].isThisDevice ? .vouched : standings[list.entries[index].device]
        }
        return list
    }

    /// The list from what the journal keeps, with the devices that have a log on the hub and the cards
    /// refused there.
    static func from(
        _ store: JournalStore, hubID: HubID, logs: [DeviceID], refused: [DeviceID: String], hubProblem: String?
    ) async throws -> DeviceList {
        var cards: [DeviceID: DeviceCard] = [:]
        for card in try await store.deviceCards(hubID: hubID) { cards[card.device] = card }
        let anchors = try await store.anchors(hubID: hubID)
        // A card refused is no device of the hub's: they are counted apart (`refusedCards`), however many junk files there are.
        let devices = Set(cards.keys).union(logs).union(anchors.keys).union([store.deviceID])
        let entries = devices.map { device in
            Entry(device: device, isThisDevice: device == store.deviceID, card: cards[device], cardProblem: refused[device])
        }.sorted { ($0.isThisDevice ? 0 : 1, $0.shownName.lowercased(), $0.device) < ($1.isThisDevice ? 0 : 1, $1.shownName.lowercased(), $1.device) }
        return DeviceList(entries: entries, refusedCards: refused.filter { !devices.contains($0.key) }, hubProblem: hubProblem, at: store.clock.now())
    }

    /// "just now", "within 4 min", "25 min ago", "never" (`SyncReport.ago`).
    public func ago(_ instant: Timestamp?) -> String { SyncReport.ago(instant, at: at) }

    public var json: JSONValue {
        .object([
            ("hub_problem", .optional(hubProblem)),
            ("devices", .array(entries.map { entry in
                .object([
                    ("device", .string(entry.device.rawValue)), ("this_device", .bool(entry.isThisDevice)),
                    ("name", entry.card.map { .string($0.name) } ?? .null),
                    ("epoch", entry.card.map { .integer($0.epoch) } ?? .null),
                    ("last_published_at", entry.card?.publishedAt.map { .string(LocalTime.iso8601($0)) } ?? .null),
                    ("last_synced_at", entry.card?.syncedAt.map { .string(LocalTime.iso8601($0)) } ?? .null),
                    ("card_problem", .optional(entry.cardProblem)),
                    ("revoked_at", entry.revoked.map { .string(LocalTime.iso8601($0.at)) } ?? .null),
                    ("revoked_by", entry.revoked.map { .string($0.by) } ?? .null),
                    ("standing", entry.revoked != nil ? .string("revoked") : entry.standing.map { .string($0.rawValue) } ?? .null),
                ])
            })),
            ("refused_cards", .array(refusedCards.sorted { $0.key < $1.key }.map {
                .object([("device", .string($0.key.rawValue)), ("reason", .string($0.value))])
            })),
        ])
    }
}
