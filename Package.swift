// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "journal",
    products: [
        .executable(name: "journal", targets: ["journal"]),
        .library(name: "JournalKit", targets: ["JournalKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "JournalKit",
            dependencies: ["CSQLite"],
            plugins: ["EmbedMigrations"]
        ),
        .executableTarget(
            name: "journal",
            dependencies: [
                "JournalKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
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
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "JournalKitTests",
            dependencies: ["JournalKit", "TestSupport"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["TestSupport"]
        ),
    ]
)
