import ArgumentParser
import JournalKit
import JournalSync

struct SyncNewDevice: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-device",
        abstract: "Give this journal a device id of its own, after copying its database from another machine.",
        discussion: "Its own changes are published again under the new id at the next sync; nothing is lost.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let new = try await SyncJoin.takeNewDeviceID(try await global.openStore())
        Output.line("This journal is now device \(new). Run `journal sync` to publish its changes under it.")
    }
}
