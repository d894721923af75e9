import ArgumentParser
import CommandLineSupport
import JournalKit

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a consistent copy of the journal to FILE, safe while the daemon and other commands write.",
        discussion: """
            The copy is one file (no -wal beside it), 0600, checked with SQLite's integrity_check before it \
            replaces FILE. Use it with --db FILE, or put it back in place of the journal (see `journal path`) \
            with the daemon stopped and the journal's -wal and -shm removed. A plain cp of the journal misses \
            what its -wal file holds. FILE cannot be the journal or a file it keeps beside it, nor a device, \
            FIFO or folder.
            """)

    @Argument(help: ArgumentHelp("Where to write the copy.", valueName: "file"))
    var file: String

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let store = try await global.openStore()
        let target = try BackupTarget.resolve(file, protecting: JournalPaths.files(ofDatabase: store.path), inside: JournalPaths.protectedFolders())
        let summary = try await store.backup(to: target)
        if output.json {
            return Output.line(JSONValue.object([
                ("path", .string(summary.path)), ("bytes", .integer(Int64(summary.bytes))), ("drinks", .integer(Int64(summary.drinks))),
            ]).prettyText)
        }
        Output.line("Backed up \(summary.drinks) drink\(summary.drinks == 1 ? "" : "s") to \(TerminalText.escaped(summary.path)) "
            + "(\(ByteCount(summary.bytes)), verified).")
    }
}
