/// The kinds of hub a program reaches, and how it reaches them: the one place that turns a name a
/// person gave (a URL, a path) or a location the journal recorded into a hub's place. The sync
/// program lists every kind (`KnownHubs`); a test lists what it needs.
public struct HubRegistry: Sendable {
    public let drivers: [any HubDriver]
    public var access: HubAccess

    public init(_ drivers: [any HubDriver], access: HubAccess = HubAccess()) {
        self.drivers = drivers
        self.access = access
    }

    /// This registry, reaching hubs with `access`.
    public func with(_ access: HubAccess) -> HubRegistry { HubRegistry(drivers, access: access) }

    /// The place of a hub the journal joined, as it recorded its kind and location.
    public func place(_ kind: HubKind, location: String) throws -> any HubPlace {
        guard let driver = driver(for: kind) else {
            throw SyncError.unreachableKind(kind: kind.rawValue, hub: location)
        }
        return try driver.place(named: location, access: access)
    }

    /// The place a person named: a URL whose scheme a driver has, or a path (no scheme), which is a
    /// folder's. `scheme`, when given, is taken for the name's scheme whatever it holds: the
    /// options that name a kind (`--postgres`) pass a libpq `key=value` string through it.
    public func place(named name: String, scheme: String? = nil) throws -> any HubPlace {
        if scheme == nil, HubName.readsAsKeywords(name) { throw HubNameError.keywordsForAPath(name: name) }
        let scheme = scheme ?? HubName.scheme(of: name) ?? HubName.pathScheme
        guard let driver = driver(forScheme: scheme) else {
            throw HubNameError.unknownScheme(scheme: scheme, name: name, known: drivers.flatMap(\.schemes))
        }
        return try driver.place(named: name, access: access)
    }

    /// The driver of hubs of `kind`, when this program reaches it.
    public func driver(for kind: HubKind) -> (any HubDriver)? { drivers.first { $0.kind == kind } }

    /// The driver of hubs named by URLs of `scheme` (any case).
    public func driver(forScheme scheme: String) -> (any HubDriver)? {
        let scheme = scheme.lowercased()
        return drivers.first { $0.schemes.contains(scheme) }
    }
}
