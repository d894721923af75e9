import Foundation
import Testing
import TestSupport

/// The tarball's `install.sh`, run from a tarball's layout as a person runs it, with a PREFIX that
/// holds what a shell, sed or systemd reads in a way of its own: the unit it writes names the daemon it
/// installed, as systemd itself reads the unit (`systemd-analyze verify` looks for the program its
/// ExecStart names), or the PREFIX is refused before anything is written.
@Suite(.onTestThreads) struct InstallScriptTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardized.path

    /// A tarball's layout in `folder`, as `packaging/dist.sh` makes it, with stand-ins for the
    /// programs, pages and completions: what is checked is where they go and the unit that names them.
    func stageTarball(in folder: String) throws -> String {
        let tarball = folder + "/journal-0.0.0-linux-x86_64"
        let manager = FileManager.default
        for sub in ["bin", "share/man/man1", "completions", "systemd"] {
            try manager.createDirectory(atPath: tarball + "/" + sub, withIntermediateDirectories: true)
        }
        for (source, destination) in [
            ("systemd/journal-sync.service", "systemd/journal-sync.service"), ("systemd/write-unit.sh", "systemd/write-unit.sh"),
            ("README.md", "README.md"), ("LICENSE", "LICENSE"),
        ] {
            try manager.copyItem(atPath: Self.repository + "/" + source, toPath: tarball + "/" + destination)
        }
        // What is run is written through descriptors closed on exec: FileManager's stay open in a
        // process another test starts meanwhile, and running the file then fails with "Text file
        // busy" (exit 126, seen once in a whole run).
        try ProcessRunner.copyExecutable(Self.repository + "/packaging/install.sh", to: tarball + "/install.sh")
        let stub = folder + "/stub"
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: URL(fileURLWithPath: stub))
        for program in ["bin/journal", "bin/journal-syncd"] { try ProcessRunner.copyExecutable(stub, to: tarball + "/" + program) }
        for file in ["share/man/man1/journal.1", "completions/journal.bash", "completions/_journal", "completions/journal.fish"] {
            guard manager.createFile(atPath: tarball + "/" + file, contents: Data("#!/bin/sh\nexit 0\n".utf8)) else {
                throw FixtureError("cannot write \(tarball)/\(file)")
            }
        }
        return tarball
    }

    /// Runs the tarball's install.sh from its folder with `prefix`, in a home of its own.
    func install(from tarball: String, prefix: String, home: String) throws -> ProcessResult {
        try ProcessRunner.run(
            "/bin/sh", ["-c", "cd \"$0\" && exec ./install.sh \"$1\"", tarball, "PREFIX=" + prefix],
            environment: ["HOME": home, "PATH": "/usr/bin:/bin"])
    }

    /// Every file and folder under `folder`, for checking that nothing was written there.
    func contents(of folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
    }

    @Test(arguments: ["a space", "an&ampersand", "a%h specifier", "a$dollar", "a|bar", "caf\u{E9}"])
    func theUnitNamesTheDaemonInstalledUnderAnyPrefix(_ name: String) async throws {
        try await withTemporaryDirectory { folder in
            let tarball = try stageTarball(in: folder)
            let home = folder + "/home", prefix = folder + "/" + name + "/prefix"
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            let installed = try install(from: tarball, prefix: prefix, home: home)
            #expect(installed.status == 0, "\(installed.stderr)")
            #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/journal-syncd"))
            let unit = home + "/.config/systemd/user/journal-sync.service"
            let text = try String(contentsOfFile: unit, encoding: .utf8)
            // systemd reads the unit and looks for its program: a path it reads otherwise is "not executable".
            let verified = try ProcessRunner.run(
                "/usr/bin/systemd-analyze", ["--user", "verify", unit], environment: ["XDG_RUNTIME_DIR": home, "HOME": home, "SYSTEMD_COLORS": "0"])
            #expect(verified.status == 0 && verified.stdout.isEmpty && verified.stderr.isEmpty,
                    "\(verified.stdout)\(verified.stderr)\n\(text)")
            // The README's URL, read as systemd reads it (%% is %) and then as a URL.
            let documentation = try #require(text.split(separator: "\n").first { $0.hasPrefix("Documentation=") })
            let url = try #require(URL(string: documentation.dropFirst("Documentation=".count).replacingOccurrences(of: "%%", with: "%")))
            #expect(url.scheme == "file" && url.path == prefix + "/share/doc/journal/README.md", "\(documentation)")
            #expect(FileManager.default.fileExists(atPath: url.path))
        }
    }

    /// A relative PREFIX would name folders from wherever the daemon starts; systemd will not start a
    /// program whose path holds a control character, a quote or a backslash, however it is written.
    @Test(arguments: ["relative/prefix", "/a\nnewline", "/a\\backslash", "/o'brien", "/a\"quote"])
    func aPrefixTheUnitCannotNameIsRefusedBeforeAnythingIsWritten(_ name: String) async throws {
        try await withTemporaryDirectory { folder in
            let tarball = try stageTarball(in: folder)
            let home = folder + "/home"
            let prefix = name.hasPrefix("/") ? folder + name : name
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            let before = contents(of: folder)
            let refused = try install(from: tarball, prefix: prefix, home: home)
            #expect(refused.status == 64, "\(refused.stdout)\(refused.stderr)")
            #expect(refused.stderr.contains("PREFIX"), "\(refused.stderr)")
            #expect(contents(of: folder) == before)
        }
    }
}
