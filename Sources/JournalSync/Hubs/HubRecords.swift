import JournalKit

/// Reading cards and key epochs' records one at a time, by one rule for every kind that keeps them
/// as files: bytes that cannot be used (not a file, too large, not this user's to read) are that
/// record's failure alone, which the engine remembers and says once; one gone since it was listed
/// (`read` gives nil) is left out; any other failure (the hub out of reach, no descriptor left, a
/// disk's error) fails the whole read, to be tried again at the next sync, and is never remembered as
/// the record's.
public enum HubRecords {
    public static func read<Name: Hashable>(
        _ names: [Name], by read: (Name) async throws -> [UInt8]?
    ) async throws -> [Name: Result<[UInt8], SyncError>] {
        var found: [Name: Result<[UInt8], SyncError>] = [:]
        for name in names {
            do {
                guard let bytes = try await read(name) else { continue }
                found[name] = .success(bytes)
            } catch let error as SyncError where error.hubCondition == .unusableEntry {
                found[name] = .failure(error)
            }
        }
        return found
    }
}
