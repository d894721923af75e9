import JournalKit
import JournalSync

/// An S3 hub's place: a bucket's prefix, holding (or to hold) `journal-hub-v1/`.
public struct S3Place: HubPlace {
    let storage: S3Storage

    /// The place `url` names; `patience` bounds each request; `environment` is where credentials and
    /// the region are looked up (the process's, but for tests). A URL a person gives is `settled`: what
    /// the environment and the AWS files add to it (the endpoint, region, profile, authorities) is
    /// recorded with it. A recorded one is taken as it is, so that no variable or profile changed
    /// since sends a journal's requests, or its access key's id, to another server.
    public init(
        url: String, patience: HubAccess.Patience = .syncing, settling: Bool = true,
        environment: @escaping @Sendable (String) -> String? = { JournalPaths.environment($0) }
    ) throws {
        let given = try S3Location.parse(url)
        let location = settling ? try S3CredentialSource(location: given, environment: environment).settled() : given
        storage = S3Storage(place: location, source: S3CredentialSource(location: location, environment: environment), patience: patience)
    }

    public func serviceWarning() -> String? { storage.source.serviceWarning() }

    public var kind: HubKind { .s3 }
    public var location: String { storage.location }
    public var needsNetwork: Bool { true }
    /// Who shares a bucket is the store's policies' to say.
    public var canBeSharedByGroup: Bool { false }
    /// A bucket has no folders to be missing; one that is not there is said when it is first asked.
    public func missingParent() -> String? { nil }
    /// The journal upgrades what it writes itself.
    public func migrationScript() -> String? { nil }

    public func hubExists() async throws -> Bool { try await StorageHub.exists(on: storage) }

    public func open(key: SyncKey, expecting hubID: HubID?) async throws -> any Hub {
        try await StorageHub.open(kind: .s3, storage: storage, key: key, expecting: hubID)
    }

    /// Probes the store's conditional writes, then makes the hub: a store without them is refused.
    public func make(key: SyncKey, shared: Bool) async throws -> any Hub {
        try await StorageHub.make(kind: .s3, storage: storage, key: key)
    }

    public func nothingToJoin() -> any Error { SyncError.noHubToJoin(hub: location) }
}
