import Glibc
import ArgumentParser
import CommandLineSupport
import JournalKit
import JournalSync
import KnownHubs
import SyncCommandLine

extension SyncRotateKey {
    func carryOut() async throws {
        let store = try await global.openStore()
        let (epoch, reached) = try await SyncSetup.withEngine(for: store, hubs: .known) { engine in
            var kept: [DeviceID] = []
            for name in keep { kept.append(try await engine.device(named: name)) }
            let epoch = try await engine.newEpoch(keeping: kept)
            return (epoch, await engine.names(of: epoch.record.reaches))
        }
        Output.line("The hub's key was replaced (key epoch \(epoch.record.epoch.number)). The new key reaches "
            + KeyRotationText.devices(reached) + "; each takes it up at its next sync. `journal sync key` prints it, for a "
            + "machine that joins from now on; the old key admits no one.")
        KeyRotationText.leftOut(epoch.leftOut, command: "journal sync rotate-key")
        for sentence in SyncReport.setAsideSentences(epoch.notes) { Output.line(TerminalText.escaped(sentence)) }
    }
}

extension SyncRevoke {
    func carryOut() async throws {
        let store = try await global.openStore()
        // On a terminal, the device a name or an id start stands for is named, and revoked once the
        // person says so: by its full id, so that it is the one they saw.
        var named = device
        if !yes, isatty(STDIN_FILENO) == 1, TerminalPrompt.isAvailable {
            let (id, name) = try await SyncSetup.withEngine(for: store, hubs: .known) { engine in
                let id = try await engine.device(named: device)
                let card = try await store.deviceCards(hubID: engine.hub.id).first { $0.device == id }
                return (id, card?.name ?? id.rawValue)
            }
            let question = "Revoke \(TerminalText.quoted(name)) (\(id.rawValue.prefix(8)))? It will read nothing published from now on, "
                + "and every device will refuse what it publishes. [y/N] "
            guard TerminalPrompt.confirm(question) else { throw RevocationDeclined(name: name) }
            named = id.rawValue
        }
        let (epoch, reached, name, kind) = try await SyncSetup.withEngine(for: store, hubs: .known) { engine in
            let device = try await engine.device(named: named)
            var kept: [DeviceID] = []
            for name in keep { kept.append(try await engine.device(named: name)) }
            let epoch = try await engine.newEpoch(revoking: [device], keeping: kept)
            return (epoch, await engine.names(of: epoch.record.reaches), await engine.names(of: [device])[0], engine.hub.kind)
        }
        Output.line("\(TerminalText.escaped(name)) was revoked (key epoch \(epoch.record.epoch.number)): it cannot read anything "
            + "published from now on, and every device refuses what it publishes from now on. The new key reaches "
            + KeyRotationText.devices(reached) + "; each takes it up at its next sync.")
        KeyRotationText.leftOut(epoch.leftOut, command: "journal sync rotate-key")
        for sentence in SyncReport.setAsideSentences(epoch.notes) { Output.line(TerminalText.escaped(sentence)) }
        if let steps = HubRegistry.known.driver(for: kind)?.stepsAfterRevoking(deviceName: TerminalText.escaped(name)) {
            Output.line("")
            Output.line(steps)
        }
    }
}

/// How the devices a new key reaches, and those it left out, are said.
enum KeyRotationText {
    static func devices(_ names: [String]) -> String {
        let shown = names.map { TerminalText.escaped($0) }
        return shown.count == 1 ? "this device alone" : "\(shown.count) devices (\(shown.joined(separator: ", ")))"
    }

    /// Says which devices the new key did not go to, by why, and what brings one back.
    static func leftOut(_ devices: [NewEpoch.LeftOut], command: String) {
        func names(_ devices: [NewEpoch.LeftOut], limit: Int = 10) -> String {
            let shown = devices.prefix(limit).map { TerminalText.escaped($0.name) }.joined(separator: ", ")
            return devices.count > limit ? shown + " and \(devices.count - limit) more" : shown
        }
        let unvouched = devices.filter { $0.reason == .unvouched }
        if !unvouched.isEmpty {
            Output.line("Left out: \(names(unvouched)): \(unvouched.count == 1 ? "it" : "they") joined with the key alone and no member "
                + "vouches for \(unvouched.count == 1 ? "it" : "them"), so whoever held the key could have made \(unvouched.count == 1 ? "it" : "them"). "
                + "On a machine of yours among them, join again with a key `journal sync key` prints here (`journal sync init --hub HUB --key-file -`); "
                + "or run `\(command) --keep NAME` to vouch for it yourself.")
        }
        let throughRevoked = devices.filter { $0.reason == .vouchedOnlyByRevoked }
        if !throughRevoked.isEmpty {
            Output.line("Left out: \(names(throughRevoked)): only the revoked machine vouched for "
                + "\(throughRevoked.count == 1 ? "it" : "them"), so it may have made \(throughRevoked.count == 1 ? "it" : "them") up. "
                + "A machine of yours among them: `journal sync rotate-key --keep NAME` here gives it the new key.")
        }
        let beyond = devices.filter { $0.reason == .beyondLimit }
        if !beyond.isEmpty {
            Output.line("Left out: \(names(beyond)): a key goes to at most \(EpochRecord.maximumReached) devices, and these were vouched "
                + "for farthest from this one. So many devices means some member made them up: `journal sync devices` shows who vouches "
                + "for them, and `journal sync revoke NAME` shuts that member out with every device only it vouched for.")
        }
        for device in devices {
            if case .unusableKeys(let problem) = device.reason {
                Output.line("Left out: \(TerminalText.escaped(device.name)): \(problem).")
            }
        }
    }
}

/// The person at the terminal did not say yes to a revocation.
struct RevocationDeclined: JournalFailure {
    let name: String

    var kind: FailureKind { .failure }
    var description: String { "nothing was revoked: \(TerminalText.quoted(name)) stays a member (answer y to revoke it, or give --yes)." }
}
