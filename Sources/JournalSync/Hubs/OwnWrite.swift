/// Whether what a hub holds at a name is a write of this process's: one a request sent again after
/// its connection closed had carried out the first time, so that the second is refused (the name is
/// taken). What the journal writes holds a random nonce or id, so no other writer's bytes are equal.
public enum OwnWrite {
    /// True when `read`, given at most `bytes.count` to read, finds these very bytes. More than that
    /// (`HubFailure.Condition.unusableEntry`) is another's; nothing there is not this write's either.
    public static func holds(_ bytes: [UInt8], read: (_ limit: Int) async throws -> [UInt8]?) async throws -> Bool {
        do { return try await read(bytes.count) == bytes } catch let error as SyncError where error.hubCondition == .unusableEntry {
            return false
        }
    }
}
