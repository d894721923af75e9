import ArgumentParser
import CommandLineSupport
import JournalKit

struct Path: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "path",
        abstract: "Print the journal's database path, for sqlite3 (back it up with journal backup, not cp).")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        Output.line(try global.databasePath())
    }
}
