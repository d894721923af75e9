import JournalKit

/// Why a hub could not be made on a store, in words every kind of store shares.
public enum StorageHubError: JournalFailure, Equatable {
    /// Another machine made a hub there while this one was making its own.
    case madeMeanwhile(hub: String)

    public var kind: FailureKind { .failure }

    public var description: String {
        switch self {
        case .madeMeanwhile(let hub):
            "another machine made a hub at \(hub) while this one was making its own; nothing of this one was kept."
        }
    }

    public var remedy: Remedy? { .joinWithKey }
}
