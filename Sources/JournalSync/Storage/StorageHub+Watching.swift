import JournalKit

/// How the daemon learns of changes, what `sync status` says, and taking back a hub just made.
extension StorageHub {
    /// Polling: a store has no push (`HeadsLook`).
    public func changes(ownDevice: DeviceID, clock: any JournalClock) -> HubChanges {
        let heads = HeadsLook(hub: self, ownDevice: ownDevice, clock: clock)
        return .polls(HubPoll(schedule: schedule) { try await heads.look() })
    }

    public func lastNotification() async -> Timestamp? { state.withLock { $0.lastRing } }

    /// The store's facts, and how often it is looked at.
    public func describe() async throws -> HubDescription {
        var facts = try await storage.facts()
        facts.append(HubFact(label: "Polled", key: "polled", value: schedule.spoken))
        return HubDescription(facts: facts)
    }

    /// Takes back hub.json when nothing else is in the hub: another device that came meanwhile keeps
    /// what it wrote.
    public func unmake() async {
        guard let all = try? await storage.list(prefix: Self.root, after: nil, limit: 2), all.map(\.name) == [Self.descriptorName] else { return }
        try? await storage.delete(Self.descriptorName)
    }

    /// Connections are the process's client's, kept between syncs.
    public func close() async {}
}
