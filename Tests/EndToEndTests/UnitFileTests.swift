import Foundation
import Testing
import TestSupport

/// The systemd user unit, checked offline as `make install` writes it (`systemd/write-unit.sh`).
@Suite(.onTestThreads) struct UnitFileTests {
    static let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../systemd/journal-sync.service").standardized.path

    func rendered(in folder: String) throws -> String {
        let written = try ProcessRunner.run(
            "/bin/sh", [(Self.template as NSString).deletingLastPathComponent + "/write-unit.sh", ProcessRunner.productsFolder, folder],
            environment: [:])
        guard written.status == 0 else { throw FixtureError("write-unit.sh: \(written.stderr)") }
        let path = folder + "/journal-sync.service"
        try written.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func analyze(_ arguments: [String], runtime: String) throws -> ProcessResult {
        try ProcessRunner.run(
            "/usr/bin/systemd-analyze", arguments, environment: ["XDG_RUNTIME_DIR": runtime, "HOME": runtime, "SYSTEMD_COLORS": "0"])
    }

    @Test func verifiesWithoutAWord() async throws {
        try await withTemporaryDirectory { folder in
            let unit = try rendered(in: folder)
            let result = try analyze(["--user", "verify", unit], runtime: folder)
            #expect(result.status == 0)
            #expect(result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stdout)\(result.stderr)")
        }
    }

    /// What the unit does not restart on is what the daemon exits with when restarting cannot help: a
    /// bad option (64), and a setup to change (78: here, another daemon already on the journal). A
    /// failure that a restart may cure (1) is restarted.
    @Test func theUnitRestartsTheDaemonUnlessRestartingCannotHelp() async throws {
        try await withTemporaryDirectory { folder in
            let unit = try String(contentsOfFile: Self.template, encoding: .utf8)
            let line = try #require(unit.split(separator: "\n").first { $0.hasPrefix("RestartPreventExitStatus=") })
            let prevented = Set(line.dropFirst("RestartPreventExitStatus=".count).split(separator: " ").compactMap { Int32($0) })
            #expect(unit.contains("\nRestart=on-failure\n"))
            let a = try JoinedMachines(in: folder, names: ["a"], now: nil).machines[0]
            let badOption = try ProcessRunner.run(daemonBinary, ["--interval", "soon"], environment: a.environment)
            #expect(badOption.status == 64, "\(badOption.stderr)")
            #expect(prevented.contains(badOption.status), "\(line)")
            let (first, socket) = try startDaemon(a, socketPath: folder + "/notify.sock")
            defer { ProcessRunner.stop(first, signal: SIGTERM) }
            defer { withExtendedLifetime(socket) {} }
            let second = try ProcessRunner.run(daemonBinary, [], environment: a.environment)
            #expect(second.status == 78 && second.stderr.contains("already syncs"), "\(second.stderr)")
            #expect(prevented.contains(second.status), "\(line)")
            #expect(!prevented.contains(1), "\(line)")
        }
    }

    /// The overall exposure systemd-analyze gives the unit at `unit`, with the drop-ins beside it.
    func exposure(_ unit: String, runtime: String) throws -> Double {
        let result = try analyze(["--user", "security", "--offline=yes", "--threshold=20", unit], runtime: runtime)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let words = line.components(separatedBy: ".service: ").last?.split(separator: " ") ?? []
        return try #require(words.first.flatMap { Double($0) }, "\(line)")
    }

    @Test func ratesOneOrLowerInTheSecurityAnalysis() async throws {
        try await withTemporaryDirectory { folder in
            let score = try exposure(try rendered(in: folder), runtime: folder)
            #expect(score <= 1.0)
        }
    }

    /// A daemon on a PostgreSQL hub gets the network through the drop-in `sync init --postgres` writes
    /// beside the installed unit, and stays at 2.0 or lower.
    @Test func theServerHubsVariantRatesTwoOrLower() async throws {
        try await withTemporaryDirectory { folder in
            let units = folder + "/.config/systemd/user"
            try FileManager.default.createDirectory(atPath: units, withIntermediateDirectories: true)
            let unit = try rendered(in: units)
            let machine = JournalCLI(home: folder)
            let joined = try machine.run(["sync", "init", "--postgres", try HubFlavor.postgres.newHub(in: folder + "/server")])
            #expect(joined.status == 0, "\(joined.stderr)")
            let dropIn = units + "/journal-sync.service.d/network-hub.conf"
            #expect(try String(contentsOfFile: dropIn, encoding: .utf8).contains("PrivateNetwork=no"))
            #expect(try analyze(["--user", "verify", unit], runtime: folder).stderr.isEmpty)
            let score = try exposure(unit, runtime: folder)
            #expect(score > 1.0 && score <= 2.0, "\(score)")
        }
    }

    @Test func declaresWhatTheIssueAsksFor() throws {
        let text = try String(contentsOfFile: Self.template, encoding: .utf8)
        for line in ["Type=notify", "WatchdogSec=", "Restart=on-failure", "UMask=0077", "ExecStart=\"@BINDIR@/journal-syncd\"",
                     "ExecReload=/bin/kill -USR1 $MAINPID"] {
            #expect(text.contains(line), "\(line)")
        }
        // An IP firewall in a user unit does nothing but make systemd complain.
        #expect(!text.contains("IPAddressDeny"))
    }
}
