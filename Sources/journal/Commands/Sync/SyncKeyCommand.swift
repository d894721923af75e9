import ArgumentParser
import JournalKit
import JournalSync

struct SyncKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Print the sync key, to carry to your next machine (keep it secret: it opens the hub).")

    func run() async throws {
        let path = try SyncSetup.keyPath()
        guard let key = try SyncSetup.loadKey(path) else { throw SyncError.noKey(path: path) }
        Output.line(key.hex)
    }
}
