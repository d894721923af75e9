import JournalKit

import Glibc

/// Why sync refused or failed, each with what to do about it. Never includes the key.
public enum SyncError: JournalFailure, Equatable, SyncStopping {
    /// The journal as opened cannot sync: what the daemon acts on (`JournalStanding`).
    case journal(JournalStanding)
    case noKey(path: String)
    case keyUnreadable(path: String, reason: String)
    case keyRequiredToJoin(hub: String)
    case malformedKey(source: String)
    /// A key in the printed form that does not check: mistyped, cut short, or from a newer journal.
    case mistypedKey(source: String, problem: KeyTypo)
    /// A printed key, whole and well typed, printed for the hub labelled `given`, which does not open
    /// the hub `hub` (labelled `actual`).
    case keyForAnotherHub(hub: String, given: String, actual: String)
    case hubFormatTooNew(hub: String, format: Int, supported: Int)
    case corruptHub(hub: String, problem: String)
    /// What a hub or its transport reported (`HubFailure`): the engine acts on its condition.
    case hub(HubFailure)
    case copiedDatabase(device: DeviceID, foreign: [String])
    case copiedFile(path: String)
    case segmentsFailed([SegmentFailure])
    case hubReplaced(hub: String)
    case noHubToJoin(hub: String)
    case permissionDenied(path: String)
    /// The hub's hub.json is there, but this user may not read it.
    case hubDescriptorUnreadable(path: String, reason: String)
    /// A hub of a kind this program does not reach: recorded by a newer journal, or a program built
    /// without that kind's driver.
    case unreachableKind(kind: String, hub: String)
    /// Something a kind of hub does not do (a PostgreSQL hub keeps every segment): never asked of it
    /// by the engine, which checks first.
    case unsupported(hub: String, operation: String, reason: String)
    /// This device's key file is there but does not hold its keys.
    case malformedDeviceKeys(path: String)
    /// This device's key file holds other keys than the ones its card showed the hub.
    case deviceKeysReplaced(path: String)
    /// A name a device cannot have.
    case invalidDeviceName(DeviceNameProblem)
    /// Another device of the hub already has the name.
    case deviceNameTaken(name: String, by: DeviceID)
    /// This device was revoked: by the device called `by`, at `at`, in key epoch `epoch`.
    case deviceRevoked(by: String, at: Timestamp, epoch: String)
    /// The hub's key was replaced (by `by`, at `at`) without the new key reaching this device.
    case notGivenNewKey(by: String, at: Timestamp, epoch: String, why: LeftOutOfKey)
    /// The key given to join was replaced at `at`: it admits no one.
    case keyReplaced(hub: String, at: Timestamp)
    /// The hub's key epochs cannot be listed: which key seals what is not known.
    case epochsUnreadable(hub: String, reason: String)
    /// Two key epochs whose makers revoked each other.
    case epochsInConflict(first: String, second: String)
    /// The record of a key epoch this device holds the key of is gone or does not check.
    case epochRecordLost(epoch: String)
    /// No device of the hub is known by that name or id.
    case unknownDevice(String)
    /// More than one device of the hub answers to that name or the start of an id.
    case ambiguousDevice(String, candidates: [DeviceCandidate])
    /// A device cannot revoke itself.
    case revokingSelf
    /// This device knows no member that vouches for it yet (it joined a moment ago): a new key made
    /// here would leave every other member out.
    case notVouchedYet

    public var kind: FailureKind {
        switch self {
        case .keyRequiredToJoin, .noHubToJoin, .invalidDeviceName, .deviceNameTaken, .revokingSelf: return .usage
        // A name no device has, or several do: as an unknown or ambiguous drink id, bad data (65).
        case .unknownDevice, .ambiguousDevice: return .badData
        case .notVouchedYet: return .failure
        case .permissionDenied, .hubDescriptorUnreadable, .unreachableKind, .deviceRevoked, .notGivenNewKey: return .setup
        case .hub(let failure):
            switch failure.condition {
            case .unusableEntry, .wrongKey: return .badData
            case .unreachable, .nameTaken, .gone: return .failure
            }
        case .corruptHub, .hubFormatTooNew, .segmentsFailed, .malformedKey, .mistypedKey,
            .keyForAnotherHub, .malformedDeviceKeys, .deviceKeysReplaced, .keyReplaced, .epochsInConflict, .epochRecordLost:
            return .badData
        case .journal, .noKey, .keyUnreadable, .copiedDatabase, .copiedFile, .hubReplaced, .unsupported, .epochsUnreadable:
            return .failure
        }
    }

    /// A revoked device never syncs with the hub again: `journal add` says so once.
    public var stoppedBecause: String? {
        guard case .deviceRevoked(let by, let at, _) = self else { return nil }
        return "\(TerminalText.quoted(by)) revoked this device on \(LocalTime.display(at)): nothing it adds reaches the other machines, "
            + "and it receives nothing from them (`journal sync status` says more; a member's key, given to `journal sync init`, joins it again)"
    }

    public var remedy: Remedy? {
        switch self {
        case .journal(.notJoined): return .joinHub
        case .journal(.deviceIdentityChanged): return .restart
        case .noKey, .keyRequiredToJoin, .malformedKey, .mistypedKey: return .joinWithKey
        case .keyForAnotherHub: return .useTheHubsKey
        case .copiedDatabase, .copiedFile, .malformedDeviceKeys, .deviceKeysReplaced: return .takeNewDeviceID
        case .hubReplaced: return .rejoinHub
        case .hub(let failure):
            switch failure.condition {
            case .unreachable: return .syncWhenHubIsBack
            case .wrongKey: return .useTheHubsKey
            case .nameTaken, .unusableEntry, .gone: return nil
            }
        case .keyUnreadable, .hubFormatTooNew, .corruptHub, .segmentsFailed, .noHubToJoin,
            .hubDescriptorUnreadable, .unsupported, .unreachableKind, .invalidDeviceName, .deviceNameTaken, .deviceRevoked,
            .notGivenNewKey, .keyReplaced, .epochsUnreadable, .unknownDevice, .ambiguousDevice, .revokingSelf, .epochsInConflict,
            .epochRecordLost, .notVouchedYet:
            return nil
        case .permissionDenied: return .shareHub
        }
    }

    public var description: String {
        switch self {
        case .journal(.notJoined):
            return "this journal is not joined to a hub yet."
        case .journal(.deviceIdentityChanged):
            return "this journal was given a new device id after it was opened."
        case .noKey(let path):
            return "no sync key at \(path)."
        case .keyUnreadable(let path, let reason):
            return "cannot read the sync key at \(path): \(reason). Check the file's owner and permissions (0600)."
        case .keyRequiredToJoin(let hub):
            return "\(hub) is an existing hub, and joining it needs its key. Nothing was written."
        case .malformedKey(let source):
            return "\(source) does not hold a sync key: `journal sync key` prints one as `JK2-` and 21 groups of 4 letters "
                + "and digits (older journals printed `JK1-` and 15 groups, or 64 hexadecimal characters). Nothing was written."
        case .mistypedKey(let source, let problem):
            return "the sync key in \(source) cannot be used: \(problem.description). Nothing was written."
        case .keyForAnotherHub(let hub, let given, let actual):
            return "the sync key given was printed for hub \(given), and \(hub) is hub \(actual): the key does not open it. "
                + "Nothing was read or written."
        case .hubFormatTooNew(let hub, let format, let supported):
            return "\(hub) was written by a newer journal (hub format \(format); this one knows up to \(supported)). "
                + "Update journal on this machine. Nothing was written."
        case .corruptHub(let hub, let problem):
            return "\(hub) is not a readable hub: \(problem). Nothing was written."
        case .hub(let failure):
            return failure.description
        case .copiedDatabase(let device, let foreign):
            return "the hub holds changes published as this journal's device (\(device)) that this journal did not "
                + "write (\(foreign.prefix(3).joined(separator: ", "))): this database was copied from, or to, another "
                + "machine. Nothing was published."
        case .copiedFile(let path):
            return "\(path) is not the file this journal was made in: it was copied, moved or restored from a backup. "
                + "Two copies syncing as one device would lose changes, so nothing was published."
        case .permissionDenied(let path):
            return "permission denied: \(path) belongs to another user, who has not shared it with you."
        case .hubDescriptorUnreadable(let path, let reason):
            return "the hub's \(path) cannot be read (\(reason.prefix(1).lowercased() + reason.dropFirst())): another user of the "
                + "hub replaced it with a file they alone can read, or changed its permissions. Nothing was read or written. "
                + "The hub's owner must put back a hub.json its members can read (in a shared hub, its group's and mode 660)."
        case .noHubToJoin(let hub):
            return "there is no hub in \(hub) yet, and a key was given to join one, so nothing was made (a new hub "
                + "there would split your machines between two hubs). If a sync tool such as Syncthing or Dropbox is "
                + "still copying it from another machine, wait until \(hub)/\(HubLayout.root)/\(HubLayout.descriptor) has arrived and run "
                + "this again. To start a new hub there instead, join without giving a key."
        case .unreachableKind(let kind, let hub):
            return "this journal is joined to \(hub), a hub of a kind (\(kind)) this program does not reach: it was joined by a "
                + "newer journal, or this program was built without that kind. Update journal on this machine; nothing was changed."
        case .unsupported(let hub, let operation, let reason):
            return "the hub \(hub) cannot \(operation): \(reason). Nothing was changed."
        case .hubReplaced(let hub):
            return "\(hub) holds another hub than the one this journal joined (its hub.json changed: two machines made a "
                + "hub there, and a sync tool kept the other one's)."
        case .malformedDeviceKeys(let path):
            return "\(path) does not hold this device's keys (it was damaged or overwritten), and the other devices know "
                + "this device by the keys it held, so new ones cannot take their place under the same device id. Nothing was "
                + "published."
        case .deviceKeysReplaced(let path):
            return "\(path) holds other keys than the ones this device showed the hub (the file was replaced or made again), "
                + "and the other devices know this device by those. Put the file back from a backup if you have one. Nothing "
                + "was published."
        case .invalidDeviceName(let problem):
            return "\(problem.description). Nothing was changed."
        case .deviceNameTaken(let name, let device):
            return "another device of the hub (\(device)) is already called '\(TerminalText.quoted(name))': choose another name, "
                + "or rename that one on its machine first. Nothing was changed."
        case .deviceRevoked(let by, let at, let epoch):
            return "this device was removed from the hub by \(TerminalText.quoted(by)) on \(LocalTime.display(at)) (key epoch \(epoch)): "
                + "it can no longer read what the others publish, and they refuse what it publishes. Nothing was published or "
                + "applied; this journal keeps everything it holds. To sync it again, a member must print the current key "
                + "(`journal sync key`), and this journal join the hub again as a new device (`journal sync new-device`, then "
                + "`journal sync init` with that key)."
        case .notGivenNewKey(let by, let at, let epoch, let why):
            let join = "print the current key on a member (`journal sync key`) and join with it here (`journal sync init ... --key-file -`)"
            let start = "the hub's key was replaced by \(TerminalText.quoted(by)) on \(LocalTime.display(at)) (key epoch \(epoch)), "
            switch why {
            case .cardNotSeen:
                return start + "and the new key was not given to this device (its card had not reached that machine). Nothing was "
                    + "published. To join again, \(join)."
            case .vouchedOnlyByRevoked(let revoked, let name):
                return start + "which revoked \(revoked.map(TerminalText.quoted).joined(separator: " and ")), the only device"
                    + (revoked.count == 1 ? "" : "s") + " that vouched for this one: it was left out on purpose, as a device a revoked "
                    + "machine vouched for may be one it made up. Nothing was published. If this machine is yours, run `journal sync "
                    + "rotate-key --keep \(ShellWord.quoted(name))` on a member, or \(join)."
            case .unvouched(let name):
                return start + "and left this device out on purpose: it joined with the key alone, and no member vouches for it. "
                    + "Nothing was published. If this machine is yours, run `journal sync rotate-key --keep \(ShellWord.quoted(name))` on a "
                    + "member, or \(join)."
            }
        case .keyReplaced(let hub, let at):
            return "the key given opens \(hub), but it was replaced on \(LocalTime.display(at)), and a key from before a "
                + "rotation admits no one. Print the current key on a member (`journal sync key`) and join with that. Nothing "
                + "was written."
        case .epochsUnreadable(let hub, let reason):
            return "the key epochs of the hub \(hub) cannot be read (\(reason)), so which key seals what is not known. "
                + "Nothing was published or applied."
        case .epochsInConflict(let first, let second):
            return "the hub's key epochs contradict each other: \(TerminalText.quoted(first)) and \(TerminalText.quoted(second)) "
                + "revoked each other, and which one is shut out is for you to decide, not for an order of records (one made "
                + "by a revoked machine can be made to come first). Nothing was published or applied. Move the hub's members "
                + "to a new hub (`journal sync init` with a new folder or database on each machine you trust)."
        case .epochRecordLost(let epoch):
            return "the record of key epoch \(epoch), whose key this device holds, is gone from the hub or does not check "
                + "(it was removed or altered), so sealing under an older key would hand what follows to whoever that key "
                + "was taken from. Nothing was published or applied. Put the hub's `epochs` back from a backup or another copy."
        case .unknownDevice(let name):
            return "no device of the hub is called or has the id '\(TerminalText.quoted(name))' (`journal sync devices` lists "
                + "them). Nothing was changed."
        case .ambiguousDevice(let text, let candidates):
            let listed = candidates.map { "\(TerminalText.quoted($0.name)) (\($0.id.rawValue))" }.joined(separator: ", ")
            return "'\(TerminalText.quoted(text))' names \(candidates.count) devices of the hub: \(listed). Give the whole id of the one "
                + "you mean. Nothing was changed."
        case .notVouchedYet:
            return "this device has not found yet who invited it: no card on the hub names the invitation in the key it joined with "
                + "(that member has not written its card since it printed the key, or the invitation ended), so a new key made here "
                + "would reach this device alone. Sync again once that member has synced (`journal sync`), or run this on another "
                + "member. Nothing was changed."
        case .revokingSelf:
            return "a device cannot revoke itself: revoke it from another of your machines. Nothing was changed."
        case .segmentsFailed(let failures):
            return failures.map(\.description).joined(separator: "\n")
                + "\nThose segments were not applied; everything else synced. They are retried on every sync."
        }
    }
}

/// Why the journal, as a process opened it, cannot sync: facts control flow reads (the daemon waits
/// for a join, or exits to be started afresh), said to a person by `SyncError.journal`.
public enum JournalStanding: Sendable, Equatable {
    /// The journal is not joined to a hub.
    case notJoined
    /// The journal was given a new device id after this process opened it.
    case deviceIdentityChanged
}

extension SyncError {
    /// The journal is not joined to a hub.
    public static let notJoined = SyncError.journal(.notJoined)
    /// The journal was given a new device id after it was opened.
    public static let deviceIdentityChanged = SyncError.journal(.deviceIdentityChanged)

    /// What the failure says of the journal as opened, if it is such a failure.
    public var journalStanding: JournalStanding? {
        if case .journal(let standing) = self { return standing }
        return nil
    }
}

/// A device a name or the start of an id could mean.
public struct DeviceCandidate: Sendable, Equatable {
    public let name: String
    public let id: DeviceID
}
