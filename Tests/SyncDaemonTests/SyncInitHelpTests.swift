import JournalSync
import KnownHubs
import SyncCommandLine
import Testing

/// `journal sync init --help` is printed by `journal`, which links no hub driver: its words are
/// written by hand, and this holds them to the registry.
struct SyncInitHelpTests {
    @Test
    func theHelpOfSyncInitNamesEveryKindThisProgramReaches() {
        let help = SyncInit.helpMessage(columns: 1000)
        for driver in HubRegistry.known.drivers {
            #expect(driver.schemes.contains { help.contains($0 + "://") }, "sync init --help names no URL of \(driver.kind) hubs")
        }
        #expect(help.contains("--hub <hub>"))
        // The options of earlier releases work, and are not shown.
        #expect(!help.contains("--folder") && !help.contains("--postgres"))
    }
}
