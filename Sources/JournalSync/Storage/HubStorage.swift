import JournalKit

/// What a hub is made of where the storage is a store of named objects (S3 and those that answer as
/// it does): list under a prefix, read, create only where nothing is, replace only what is unchanged,
/// delete. Cards, key epochs, segments and how changes are noticed live once above it
/// (`StorageHub`); a kind of storage provides only this, and its words.
///
/// Names are relative to the hub's root, "/"-separated ("logs/<device>/<segment>"); the storage puts
/// them under its own prefix.
public protocol HubStorage: Sendable {
    /// The hub as messages name it, and the journal records it.
    var location: String { get }
    /// The names under `prefix`, past `after` in byte order, at most `limit`, each with its size and
    /// version tag: one page of a listing.
    func list(prefix: String, after: String?, limit: Int) async throws -> [StoredObject]
    /// The bytes at `name`, at most `limit` (more is `HubFailure.Condition.unusableEntry`); nil when
    /// nothing is there.
    func read(_ name: String, limit: Int) async throws -> [UInt8]?
    /// Puts `bytes` at `name` only where nothing is: its version tag, or nil when something was there.
    func create(_ name: String, _ bytes: [UInt8]) async throws -> String?
    /// Puts `bytes` at `name` only in place of the version `tag`: its new tag, or nil when what is
    /// there is another version, or nothing.
    func replace(_ name: String, _ bytes: [UInt8], ifUnchanged tag: String) async throws -> String?
    /// Removes `name`; nothing there is no failure.
    func delete(_ name: String) async throws
    /// Lines of fact for `journal sync status`: the service, its region, TLS.
    func facts() async throws -> [HubFact]
    /// What refuses a store that cannot write conditionally (`what` says what its probe found): its
    /// kind's words, with the stores that can.
    func lacksConditionalWrites(_ what: String) -> any Error
}

/// An object as a storage lists it.
public struct StoredObject: Sendable, Equatable {
    /// Its whole name, relative to the hub's root.
    public let name: String
    public let size: Int64
    /// What changes with every write of it: an ETag.
    public let tag: String

    public init(name: String, size: Int64, tag: String) {
        self.name = name
        self.size = size
        self.tag = tag
    }
}

/// Names relative to a prefix, compared byte for byte: a name's characters may join across the "/"
/// (a combining mark after it), and a name stripped by characters would lose a byte more than its
/// prefix, naming another object than the one listed.
public enum StoredName {
    /// `name` past `prefix`; nil when it does not start with it byte for byte.
    public static func relative(_ name: String, to prefix: String) -> String? {
        guard name.utf8.starts(with: prefix.utf8) else { return nil }
        return String(decoding: name.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
    }
}

extension HubStorage {
    /// The most objects a listing of one prefix is read to: a store (or a former member writing to
    /// it) that lists more is refused, not followed without end.
    public static var mostListed: Int { 1_000_000 }

    /// Every name under `prefix`, read in pages; each page must go on past the one before (a store
    /// that lists the same page again is refused, not followed for ever).
    public func listAll(prefix: String) async throws -> [StoredObject] {
        var all: [StoredObject] = []
        var after: String?
        while true {
            let page = try await list(prefix: prefix, after: after, limit: ListingPage.size)
            if let after, let first = page.first, !after.utf8.lexicographicallyPrecedes(first.name.utf8) {
                throw SyncError.hubUnavailable(hub: location, reason: "the store listed \(prefix) again from before where it had reached")
            }
            all += page
            guard all.count <= Self.mostListed else {
                throw SyncError.hubUnavailable(hub: location, reason: "the store lists more than \(Self.mostListed) names under \(prefix)")
            }
            guard page.count == ListingPage.size, let last = page.last else { return all }
            after = last.name
        }
    }

    /// The version tag of `name`, nil when nothing is there.
    public func tag(of name: String) async throws -> String? {
        try await list(prefix: name, after: nil, limit: 1).first { $0.name == name }?.tag
    }

    /// Creates `name` with `bytes` as `create` does, but takes an object there with these very bytes
    /// for this write's (`OwnWrite`): its tag.
    public func createOrFindOwn(_ name: String, _ bytes: [UInt8]) async throws -> String? {
        if let tag = try await create(name, bytes) { return tag }
        guard try await OwnWrite.holds(bytes, read: { try await read(name, limit: $0) }) else { return nil }
        return try await tag(of: name)
    }

    /// Puts `bytes` at `name` in place of what is there, or where nothing is, never over a version
    /// written meanwhile unseen: each try reads the version it replaces. A device's card, its head.
    /// True when nothing was there.
    @discardableResult
    public func put(_ name: String, _ bytes: [UInt8]) async throws -> Bool {
        for _ in 0..<4 {
            if let tag = try await tag(of: name) {
                if try await replace(name, bytes, ifUnchanged: tag) != nil { return false }
            } else if try await create(name, bytes) != nil {
                return true
            }
        }
        throw SyncError.hubUnavailable(hub: location, reason: "\(name) changed under every write of it, four times")
    }
}
