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
        return try driver.place(named: location, isURL: false, access: access)
    }

    /// The place a person named: a URL whose scheme a driver has, or a path (no scheme), which is a
    /// folder's. `kindOf`, when given, is the scheme of the kind the name is in the own form of,
    /// whatever it reads like: the options of earlier releases that name a kind (`--folder` a path,
    /// `--postgres` a libpq string, `key=value` words too) pass it.
    public func place(named name: String, kindOf given: String? = nil) throws -> any HubPlace {
        guard !name.isEmpty else { throw HubNameError.empty }
        let scheme = given ?? HubName.scheme(of: name)
        if scheme == nil, HubName.readsAsKeywords(name) { throw HubNameError.keywordsForAPath(name: name) }
        let chosen = scheme ?? HubName.pathScheme
        guard let driver = driver(forScheme: chosen) else {
            throw HubNameError.unknownScheme(scheme: chosen, name: name, known: drivers.flatMap(\.schemes))
        }
        return try driver.place(named: name, isURL: given == nil && scheme != nil, access: access)
    }

    /// The driver of hubs of `kind`, when this program reaches it.
    public func driver(for kind: HubKind) -> (any HubDriver)? { drivers.first { $0.kind == kind } }

    /// The driver of hubs named by URLs of `scheme` (any case).
    public func driver(forScheme scheme: String) -> (any HubDriver)? {
        let scheme = scheme.lowercased()
        return drivers.first { $0.schemes.contains(scheme) }
    }
}
