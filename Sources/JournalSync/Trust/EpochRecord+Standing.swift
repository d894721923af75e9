import Crypto
import FoundationEssentials
import JournalKit

extension EpochRecord {
    /// The epochs whose key `key` may be among `records`, in order: each whose check it matches, and
    /// from which every parent's key, opened in turn down to the hub's first (whose check is
    /// `firstKeyCheck`), matches its epoch's check and proves the record above it. A record that
    /// someone without the key wrote opens nothing with it; one made by a holder of an older key (a
    /// device shut out, say) may pass, which is why the chain is asked which of these is valid. Empty
    /// for the hub's first key, or a key of none of the records.
    static func epochs(
        ofKey key: SyncKey, among records: [KeyEpoch: (record: EpochRecord, signed: Signed)], hubID: HubID, firstKeyCheck: String
    ) -> [KeyEpoch] {
        guard key.check != firstKeyCheck else { return [] }
        return records.values.filter { $0.record.keyCheck == key.check }.map(\.record.epoch).sorted().filter { epoch in
            var epoch = epoch
            var key = key
            // Each step goes down one number: at most as many steps as records.
            while epoch != .first {
                guard let (record, signed) = records[epoch], let parentKey = record.parentKey(given: key, hubID: hubID),
                    parentKey.check == (record.parent == .first ? firstKeyCheck : records[record.parent]?.record.keyCheck),
                    signed.isProved(by: parentKey)
                else { return false }
                (epoch, key) = (record.parent, parentKey)
            }
            return true
        }
    }

    /// What a hub's records say of `key`, before any card is known (opening a hub, joining it).
    public struct KeyStanding: Sendable {
        /// The epoch it is the key of; nil for the hub's first key (or none of the hub's).
        public let epoch: KeyEpoch?
        /// When a record made with it replaced it, if one did: only a holder of the key can make one.
        public let replacedAt: Timestamp?
    }

    /// What the records on a hub whose first key's check is `firstKeyCheck` say of `key`.
    public static func standing(
        ofKey key: SyncKey, records: [KeyEpoch: Result<[UInt8], SyncError>], hubID: HubID, firstKeyCheck: String
    ) -> KeyStanding {
        var parsed: [KeyEpoch: (record: EpochRecord, signed: Signed)] = [:]
        // Every record, whatever its number: junk that comes first in order must not push a real one out.
        for (epoch, read) in records {
            if let bytes = try? read.get(), let record = try? parse(bytes, as: epoch, hubID: hubID) { parsed[epoch] = record }
        }
        let epoch = epochs(ofKey: key, among: parsed, hubID: hubID, firstKeyCheck: firstKeyCheck).first
        let children = parsed.values.filter { $0.record.parent == (epoch ?? .first) && $0.signed.isProved(by: key) }
        return KeyStanding(epoch: epoch, replacedAt: children.map(\.record.madeAt).min())
    }
}
