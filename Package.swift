// swift-tools-version:6.2
import PackageDescription

/// `make fuzz` sets JOURNAL_FUZZ: the code the fuzz targets exercise is then built with libFuzzer's
/// coverage, and the fuzz targets link libFuzzer's driver instead of their own `main`.
let fuzzing = Context.environment["JOURNAL_FUZZ"] != nil
let fuzzCoverage: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer"]), .define("FUZZING")] : []
let fuzzDriver: [LinkerSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer", "-use-ld=lld"])] : []

/// A fuzz target: a libFuzzer entry point over `dependencies`, which replays files in an ordinary build.
func fuzzTarget(_ name: String, _ folder: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name, dependencies: dependencies + ["FuzzSupport"], path: "Tests/Fuzz/" + folder,
        swiftSettings: fuzzCoverage, linkerSettings: fuzzDriver)
}

/// The linker's aliases that give the calls into swift-corelibs Foundation of the libraries the daemon
/// links (PostgresNIO, NIOFoundationCompat) to the FoundationStandIns module: Foundation's symbol,
/// and ours. A mangled name is the function's whole type, so PostgresNIO's call and our function agree
/// on it; one that changes names a symbol not here, links Foundation again, and `make dist` fails on
/// the ICU that comes with it.
enum FoundationStandIns {
    static let aliases: [(foundation: String, ours: String)] = [
        ("$sSS10FoundationE6format6locale9argumentsS2Sh_0A10Essentials6LocaleVSghSays7CVarArg_pGhtcfC",
         "$sSS18FoundationStandInsE13standInFormat6locale9argumentsS2Sh_0A10Essentials6LocaleVSghSays7CVarArg_pGhtcfC"),
        ("$sSy10FoundationE5range2of7optionsAB6localeSnySS5IndexVGSgqd___SS0A10EssentialsE14CompareOptionsVAiJ6LocaleVSgtSyRd__lF",
         "$sSy18FoundationStandInsE12standInRange2of7options5range6localeSnySS5IndexVGSgqd___SS0A10EssentialsE14CompareOptionsVAjK6LocaleVSgtSyRd__lF"),
        ("$sSy10FoundationE20replacingOccurrences2of4with7options5rangeSSqd___qd_0_SS0A10EssentialsE14CompareOptionsVSnySS5IndexVGSgtSyRd__SyRd_0_r0_lF",
         "$sSy18FoundationStandInsE27standInReplacingOccurrences2of4with7options5rangeSSqd___qd_0_SS0A10EssentialsE14CompareOptionsVSnySS5IndexVGSgtSyRd__SyRd_0_r0_lF"),
        // NIOFoundationCompat's, which nothing calls: to a function that stops the program.
        ("$s10Foundation17JSONSerializationC10jsonObject4with7optionsyp0A10Essentials4DataV_AC14ReadingOptionsVtKFZ", "journal_foundation_left_out"),
        ("$s10Foundation17JSONSerializationCMa", "journal_foundation_left_out"),
        ("$s10Foundation7RunLoopC3run4mode6beforeSbAC4ModeV_0A10Essentials4DateVtF", "journal_foundation_left_out"),
        ("$s10Foundation7RunLoopC7currentACvgZ", "journal_foundation_left_out"),
        ("$s10Foundation7RunLoopCMa", "journal_foundation_left_out"),
    ]
    static var linkerFlags: [String] { aliases.flatMap { ["-Xlinker", "--defsym=\($0.foundation)=\($0.ours)"] } }
}

let package = Package(
    name: "journal",
    products: [
        .executable(name: "journal", targets: ["journal"]),
        .executable(name: "journal-syncd", targets: ["journal-syncd"]),
        .library(name: "JournalKit", targets: ["JournalKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Named for their error types, which the PostgreSQL hub classifies failures by; postgres-nio
        // brings them either way.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Reads the names in a server's certificate (NIOSSL keeps its common name to itself);
        // swift-crypto brings it either way.
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        // Writes the zips the import tests read: a writer other than our reader.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // Linked as the module map says (`link "sqlite3"`), not through pkg-config: SwiftPM puts
        // pkg-config's flags first on the link line, where they would keep `make build` from linking
        // SQLite statically.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The system's zlib, which inflates an Apple Health export.zip (linked statically by `make build`).
        .systemLibrary(name: "SystemZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "CLinux"),
        // What journal-syncd would otherwise need of a glibc newer than the 2.34 README promises.
        .target(name: "GlibcBaseline", cSettings: [.define("JOURNAL_GLIBC_BASELINE", .when(configuration: .release))]),
        // The version and commit `make` built from, for `--version`.
        .target(name: "BuildVersion"),
        .target(
            name: "JournalKit",
            dependencies: ["CSQLite"],
            swiftSettings: fuzzCoverage,
            plugins: ["EmbedMigrations"]
        ),
        .target(
            name: "JournalSync",
            dependencies: [
                "CLinux", "JournalKit",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: fuzzCoverage
        ),
        .target(
            name: "FolderHub",
            dependencies: ["CLinux", "JournalKit", "JournalSync"],
            swiftSettings: fuzzCoverage
        ),
        .target(
            name: "CommandLineSupport",
            dependencies: ["BuildVersion", "CLinux", "JournalKit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Actors and tasks on a NIO event loop: the PostgreSQL hub's connection, and the daemon's
        // every task with it.
        .target(
            name: "EventLoopExecution",
            dependencies: [
                "JournalKit",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "PostgresHub",
            dependencies: [
                "EventLoopExecution", "FoundationStandIns", "JournalKit", "JournalSync",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Logging", package: "swift-log"),
            ],
            plugins: ["EmbedMigrations"]
        ),
        // What the hubs reached over HTTP share: one request and its answer (AsyncHTTPClient, TLS, a
        // deadline, Retry-After), HTTP dates, and a reader of the XML their servers answer in.
        .target(
            name: "HTTPHubSupport",
            // FoundationStandIns for its linker aliases: AsyncHTTPClient brings NIOFoundationCompat too.
            dependencies: [
                "FoundationStandIns", "JournalKit", "JournalSync",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: fuzzCoverage
        ),
        .target(
            name: "WebDAVHub",
            dependencies: [
                "JournalKit", "JournalSync", "HTTPHubSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: fuzzCoverage
        ),
        // A hub on S3-compatible object storage: a `HubStorage` signed with AWS Signature Version 4.
        .target(
            name: "S3Hub",
            dependencies: [
                "JournalKit", "JournalSync", "HTTPHubSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // Functions of swift-corelibs Foundation that PostgresNIO calls, written here with their
        // signatures, and given to its calls by the linker: with them, nothing links Foundation, and
        // ICU's data goes with it (DESIGN.md, "Size").
        .target(name: "FoundationStandIns", linkerSettings: [.unsafeFlags(FoundationStandIns.linkerFlags, .when(configuration: .release))]),
        // The registration of every kind of hub the sync program reaches.
        .target(
            name: "KnownHubs",
            dependencies: ["JournalSync", "FolderHub", "PostgresHub", "WebDAVHub", "S3Hub"]
        ),
        .target(
            name: "AppleHealth",
            dependencies: ["SystemZlib", "JournalKit"],
            swiftSettings: fuzzCoverage
        ),
        // Each kind of hub's words on the command line (help, its own subcommands), which `journal`
        // links without the kind's driver, and their one registration.
        .target(name: "FolderHubWords", dependencies: ["CommandLineSupport"]),
        .target(
            name: "PostgresHubWords",
            dependencies: ["CommandLineSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .target(name: "WebDAVHubWords", dependencies: ["CommandLineSupport"]),
        .target(name: "S3HubWords", dependencies: ["CommandLineSupport"]),
        .target(
            name: "KnownHubWords",
            dependencies: ["CommandLineSupport", "FolderHubWords", "PostgresHubWords", "WebDAVHubWords", "S3HubWords"]
        ),
        .target(
            name: "SyncCommandLine",
            dependencies: ["CommandLineSupport", "KnownHubWords", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "journal",
            dependencies: [
                "JournalKit",
                "CommandLineSupport",
                "SyncCommandLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The everyday program's release build is one static file, glibc included: every command
            // then starts without the dynamic loader (loading libc, libm and libgcc_s, binding their
            // symbols), which was a tenth of `journal add`. It asks the system for no user or host
            // (HOME, not getpwuid), which a static glibc serves only through shared NSS modules; it
            // reads the C.UTF-8 locale's character widths (`journal_display_width`) from the system's
            // files, as its own glibc's format has them. The daemon's binary resolves host names and
            // user names, and keeps glibc shared.
            // It is also the one program linked at a fixed address (-no-pie): start-up is part of every
            // command, and a position-independent binary spends it relocating (DESIGN.md, "Hardening",
            // measures it). journal-syncd, which runs for days and reads what servers and peers send,
            // is position-independent (ASLR) and binds every symbol at start (read-only after it).
            linkerSettings: [.unsafeFlags(["-static-executable", "-Xlinker", "-no-pie"], .when(configuration: .release))]
        ),
        .executableTarget(
            name: "journal-syncd",
            dependencies: [
                "AppleHealth",
                "CLinux",
                "EventLoopExecution",
                "GlibcBaseline",
                "JournalKit",
                "CommandLineSupport",
                "SyncCommandLine",
                "JournalSync",
                "KnownHubs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            linkerSettings: [.unsafeFlags(["-Xlinker", "-pie", "-Xlinker", "-z", "-Xlinker", "now", "-Xlinker", "-z", "-Xlinker", "relro"], .when(configuration: .release))]
        ),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["MigrationEmbedder"]
        ),
        .executableTarget(
            name: "MigrationEmbedder",
            path: "Plugins/MigrationEmbedder"
        ),
        .target(
            name: "TestSupport",
            dependencies: ["CLinux", .product(name: "PropertyBased", package: "swift-property-based")],
            path: "Tests/TestSupport"
        ),
        // What the sync tests' hub doubles share.
        .target(
            name: "HubTestSupport",
            dependencies: ["JournalKit", "JournalSync"],
            path: "Tests/HubTestSupport"
        ),
        // Fuzz targets: libFuzzer entry points (`make fuzz`), which replay files in an ordinary build.
        .target(name: "FuzzSupport", path: "Tests/Fuzz/FuzzSupport", swiftSettings: fuzzCoverage),
        fuzzTarget("fuzz-time", "FuzzTime", ["JournalKit"]),
        fuzzTarget("fuzz-import", "FuzzImport", ["JournalKit"]),
        fuzzTarget("fuzz-config", "FuzzConfig", ["JournalKit"]),
        fuzzTarget("fuzz-segments", "FuzzSegments", ["JournalKit", "JournalSync"]),
        fuzzTarget("fuzz-health", "FuzzHealth", ["JournalKit", "AppleHealth"]),
        fuzzTarget("fuzz-zip", "FuzzZip", ["AppleHealth"]),
        .testTarget(
            name: "JournalKitTests",
            dependencies: ["JournalKit", "TestSupport"]
        ),
        .testTarget(
            name: "JournalSyncTests",
            dependencies: [
                "JournalSync", "JournalKit", "EventLoopExecution", "FolderHub", "FoundationStandIns", "PostgresHub", "WebDAVHub", "HTTPHubSupport", "S3Hub", "KnownHubs", "HubTestSupport", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "SyncDaemonTests",
            dependencies: [
                "journal-syncd", "GlibcBaseline", "JournalKit", "JournalSync", "FolderHub", "KnownHubs", "SyncCommandLine", "HubTestSupport", "TestSupport",
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "JournalCommandTests",
            dependencies: [
                "journal", "CommandLineSupport", "SyncCommandLine", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ]
)
