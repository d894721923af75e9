import ArgumentParser
import CommandLineSupport
import JournalKit

import Glibc

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the drinks of an export (JSON or CSV) that the journal does not have yet.",
        discussion: "All or nothing, and idempotent: drinks whose id the journal has are left as they are.")

    @Argument(help: ArgumentHelp("The file, or - for stdin.", valueName: "file"))
    var file: String

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let bytes = try FileBytes.read(file, limit: DrinkExchange.importSizeLimit, what: "an import file")
        let clock = try global.clock()
        let store = try await global.openStore(clock: clock)
        let export = try DrinkExchange.parse(bytes, catalog: try await store.importCatalog(), now: clock.now())
        let progress = ProgressLine.onTerminal("Importing")
        defer { progress?.finish() }
        let total = export.drinks.count
        let summary = try await store.importDrinks(export.drinks, defining: export.customDrinks) { done in
            progress?.update(done: Int64(done), total: Int64(total), "\(done) of \(total) drinks")
        }
        progress?.finish()
        let present = summary.alreadyPresent == 0 ? "" : " (\(summary.alreadyPresent) already in the journal)"
        Output.line("Imported \(summary.added) drink\(summary.added == 1 ? "" : "s")\(present).")
    }
}
