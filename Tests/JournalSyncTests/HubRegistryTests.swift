import JournalKit
import KnownHubs
import PostgresHub
import Testing

@testable import FolderHub
@testable import JournalSync

/// How a name a person gives, or a location the journal recorded, becomes a hub's place: through the
/// sync program's one registry of kinds.
struct HubRegistryTests {
    @Test(arguments: [
        ("postgresql://alice@db/journal", "postgresql"), ("POSTGRES://db/journal", "postgres"), ("davs://me@cloud/j", "davs"),
        ("file:///srv/hub", "file"), ("FILE:/srv/hub", "file"), ("a+b.c-d://x", "a+b.c-d"),
    ])
    func aURLIsNamedByItsScheme(_ name: String, _ scheme: String) {
        #expect(HubName.scheme(of: name) == scheme)
    }

    @Test(arguments: ["/srv/hub", "hub", "./odd://name", "1x://y", "x:/y", "C:\\hub", "", "://x", "a b://c"])
    func aPathHasNoScheme(_ name: String) {
        #expect(HubName.scheme(of: name) == nil)
    }

    @Test
    func aPathOrAFileURLIsAFolder() throws {
        let hubs = HubRegistry.known
        #expect(try hubs.place(named: "/srv/journal hub").location == "/srv/journal hub")
        #expect(try hubs.place(named: "/srv/hub").kind == .folder)
        #expect(try hubs.place(named: "file:///srv/journal%20hub").location == "/srv/journal hub")
        #expect(try hubs.place(named: "FILE://localhost/srv/hub").location == "/srv/hub")
        #expect(try hubs.place(named: "file:/srv/hub").location == "/srv/hub")
        // What --folder gives: the path as it is, even one that reads like a URL.
        #expect(try hubs.place(named: "/srv/x://y", kindOf: "file").location == "/srv/x://y")
        #expect(try hubs.place(named: "file:///srv/hub", kindOf: "file").location.hasSuffix("/file:///srv/hub"))
    }

    @Test func aFileURLOfNoFolderOfThisMachineIsRefused() {
        #expect(throws: HubNameError.notALocalFolder(name: "file://nas/srv/hub")) { try HubRegistry.known.place(named: "file://nas/srv/hub") }
        for (name, problem) in [
            ("file://", "has no path"), ("file://localhost", "has no path"), ("file:///srv/a%00b", "has no path"),
            ("file:///srv/hub#b", "has a query or a fragment"), ("file:///srv/hub?x=1", "has a query or a fragment"),
        ] {
            #expect(throws: HubNameError.notAFolderURL(name: name, problem: problem)) { try HubRegistry.known.place(named: name) }
        }
        // An unset variable names no hub, not the working folder.
        #expect(throws: HubNameError.empty) { try HubRegistry.known.place(named: "") }
    }

    /// Taken for a path, libpq's words would make a folder hub named after them in the working folder.
    @Test(arguments: ["host=db dbname=journal", " dbname=journal", "service=journal"])
    func keyValueWordsAreNoPath(_ name: String) throws {
        #expect(throws: HubNameError.keywordsForAPath(name: name)) { try HubRegistry.known.place(named: name) }
        #expect(try HubRegistry.known.place(named: "./" + name).kind == .folder)
        #expect(try HubRegistry.known.place(named: name, kindOf: "file").kind == .folder)
    }

    @Test
    func aServerIsNamedByItsURLOrByLibpqWordsThroughItsOption() throws {
        let hubs = HubRegistry.known
        let place = try hubs.place(named: "postgresql://alice@db.example.org/journal")
        #expect(place.kind == .postgres)
        #expect(place.location.hasPrefix("postgresql://alice@db.example.org"))
        #expect(try hubs.place(named: "postgres://alice@db.example.org/journal").kind == .postgres)
        // A scheme is any case, here and in the connection string's own reading.
        #expect(try hubs.place(named: "POSTGRESQL://alice@db.example.org/journal").location.hasPrefix("postgresql://alice@db.example.org"))
        #expect(try hubs.place(named: "host=db.example.org user=alice dbname=journal", kindOf: "postgresql").kind == .postgres)
    }

    @Test
    func aSchemeNoKindHasIsRefusedNamingThoseThatAre() throws {
        let error = #expect(throws: HubNameError.self) { try HubRegistry.known.place(named: "gopher://me@host/hub") }
        #expect(error == .unknownScheme(scheme: "gopher", name: "gopher://me@host/hub", known: ["file", "postgresql", "postgres", "davs", "dav", "s3"]))
        #expect(error?.kind == .usage)
        #expect(error?.description.contains("file://, postgresql://, postgres://, davs://, dav://, s3://") == true)
    }

    @Test
    func aJournalJoinedToAKindThisProgramLacksIsToldSo() throws {
        #expect(throws: SyncError.unreachableKind(kind: "gcs", hub: "gs://bucket/j")) {
            try HubRegistry.known.place(HubKind(rawValue: "gcs"), location: "gs://bucket/j")
        }
        #expect(throws: SyncError.unreachableKind(kind: "webdav", hub: "davs://me@cloud/j")) {
            try HubRegistry([FolderDriver()]).place(.webdav, location: "davs://me@cloud/j")
        }
        #expect(throws: SyncError.unreachableKind(kind: "postgres", hub: "postgresql://db/j")) {
            try HubRegistry([FolderDriver()]).place(.postgres, location: "postgresql://db/j")
        }
    }

    @Test
    func everyKindIsRegisteredOnceAndEverySchemeNamesOneKind() {
        let kinds = HubRegistry.known.drivers.map(\.kind)
        let schemes = HubRegistry.known.drivers.flatMap(\.schemes)
        #expect(Set(kinds).count == kinds.count)
        #expect(Set(schemes).count == schemes.count)
        #expect(schemes.allSatisfy { $0 == $0.lowercased() && HubName.scheme(of: $0 + "://x") == $0 })
        #expect(HubRegistry.known.driver(forScheme: HubName.pathScheme)?.kind == .folder)
    }

    /// The contract tests run on every kind the sync program reaches: a kind registered without a
    /// way for the tests to make a hub of it fails here.
    @Test
    func everyRegisteredKindHasAHubFlavorForTheContractTests() {
        for driver in HubRegistry.known.drivers {
            #expect(HubFlavor(kind: driver.kind) != nil, "no HubFlavor for \(driver.kind)")
        }
        #expect(Set(HubFlavor.allCases.map(\.kind)) == Set(HubRegistry.known.drivers.map(\.kind)))
    }
}
