import FoundationEssentials
import JournalKit
import JournalSync

import Glibc

/// A hub in a plain folder: a local disk, an NFS mount, or a folder Syncthing or Dropbox copies.
///
/// `<folder>/journal-hub-v1/hub.json` says the format and holds the key check;
/// `devices/<device-id>/<first>-<last>.seg` are the segments, each written once, whole, and never
/// changed; `cards/<device-id>.card` is each device's card, replaced whole as it changes (outside
/// `devices/`, so a journal that predates cards neither watches nor lists them);
/// `epochs/<number>-<id>.epoch` are the key epochs' records, each written once;
/// `set-aside/<device-id>/` keeps files a device found in its log but did not write. Names
/// starting with "." are temporaries and are ignored. Nothing inside is reached through a link. No
/// SQLite file ever lives here: SQLite's locks do not hold over network file systems.
public struct FolderHub: Hub {
    /// The hub format this journal writes and reads.
    public static let format = 1
    /// The folder of the devices' logs, one folder each (`logs` on a store of objects).
    static let logsFolder = "devices"

    public let id: HubID
    public let location: String
    public let firstKeyCheck: String
    /// Shared between users (a group): what devices write is readable and writable by the group, as
    /// git's `core.sharedRepository = group`; otherwise by its owner alone.
    public let isShared: Bool
    let files: FolderAccess
    /// The cards' and records' folders as last listed, for paging through them.
    let listings = FolderListings()

    init(id: HubID, location: String, firstKeyCheck: String, shared: Bool = false) {
        self.id = id
        self.location = location
        self.firstKeyCheck = firstKeyCheck
        isShared = shared
        files = FolderAccess(location: location, folderMode: shared ? 0o2770 : 0o700, fileMode: shared ? 0o660 : 0o600)
    }

    /// True when `folder` holds a hub (of any format). A hub folder without its `hub.json` is one a
    /// sync tool is still copying: neither a hub to open nor a place to make one.
    public static func exists(in folder: String) throws(SyncError) -> Bool {
        if try present(folder + "/" + HubLayout.root + "/" + HubLayout.descriptor) { return true }
        if try present(folder + "/" + HubLayout.root) {
            throw SyncError.corruptHub(
                hub: folder,
                problem: "\(HubLayout.root) is there but its hub.json is not (a sync tool may still be copying it); "
                    + "wait for it to arrive, or remove \(HubLayout.root) if it is left over")
        }
        return false
    }

    /// True when something is at `path`; a permission refused is said as what it is, not taken for
    /// nothing there.
    private static func present(_ path: String) throws(SyncError) -> Bool {
        var info = stat()
        if lstat(path, &info) == 0 { return true }
        if errno == EACCES { throw SyncError.permissionDenied(path: path) }
        return false
    }

    /// Opens the hub in `folder`, refusing a newer format or another hub's key before reading anything else.
    /// With `expecting`, a hub there of another id (a sync tool kept another machine's hub.json) is
    /// refused as replaced before its key is looked at.
    public static func open(folder: String, key: SyncKey, expecting hubID: HubID? = nil) async throws -> FolderHub {
        let location = FileSystem.absolute(folder)
        let descriptor = try HubDescriptor.read(from: FolderAccess(location: location, folderMode: 0o700, fileMode: 0o600), hub: location)
        guard descriptor.format <= format else {
            throw SyncError.hubFormatTooNew(hub: location, format: descriptor.format, supported: format)
        }
        if let hubID, descriptor.hubID != hubID { throw SyncError.hubReplaced(hub: location) }
        let hub = FolderHub(id: descriptor.hubID, location: location, firstKeyCheck: descriptor.keyCheck, shared: descriptor.shared ?? false)
        // A key of a later epoch than the hub's first opens it too. A journal joined to this hub has its
        // key from a sync, and its engine tells it from the records it keeps (`SyncError.wrongKey`): only a
        // join reads every record for it, as junk there costs a reading each.
        if descriptor.keyCheck != key.check, hubID == nil {
            guard EpochRecord.standing(ofKey: key, records: try await hub.allEpochRecords(), hubID: hub.id, firstKeyCheck: descriptor.keyCheck).epoch != nil
            else { throw SyncError.wrongKey(hub: location, hubID: descriptor.hubID) }
        }
        return hub
    }

    /// Makes a new, empty hub in `folder` (made 0700 when missing) for `key`.
    public static func create(folder: String, key: SyncKey, shared: Bool = false) throws(SyncError) -> FolderHub {
        let hub = FolderHub(id: .random(), location: FileSystem.absolute(folder), firstKeyCheck: key.check, shared: shared)
        try hub.makeHere(key: key)
        return hub
    }

    /// Makes this hub, empty, in its folder (made 0700 when missing).
    func makeHere(key: SyncKey) throws(SyncError) {
        do {
            try FileSystem.makeFolders(location, mode: 0o700)
            _ = try files.folder([HubLayout.root, Self.logsFolder], creating: true)
            let descriptor = HubDescriptor(format: Self.format, hubID: id, keyCheck: key.check, shared: isShared ? true : nil)
            // Never over a hub.json that arrived meanwhile: that hub stays, and joining it needs its key.
            try files.writeNew(descriptor.encoded, as: HubLayout.descriptor, in: [HubLayout.root])
        } catch {
            throw SyncError.hubUnavailable(hub: location, reason: error.reason, code: .errno(error.code))
        }
    }

    public var kind: HubKind { .folder }

    /// The devices folder (a device joining) and each other device's folder (a segment renamed into
    /// place, by journal or by Syncthing or Dropbox); this device's writes are its own.
    public func changes(ownDevice: DeviceID, clock: any JournalClock) -> HubChanges {
        // Cards too: a segment whose card a sync tool delivers after it waits for the card.
        .files { [self] in
            [devicesFolder, cardsFolder, epochsFolder].map { WatchedFolder($0) }
                + ((try? devices()) ?? []).filter { $0 != ownDevice }.map { WatchedFolder(deviceFolder($0), log: $0) }
        }
    }

    /// A folder hub does not ring: inotify on it is this machine's own.
    public func lastNotification() -> Timestamp? { nil }

    /// Nothing is held open.
    public func close() {}

    /// Removes a hub this process just made and nothing else used: its `hub.json` and empty folders.
    public func unmake() {
        try? files.remove(HubLayout.descriptor, in: [HubLayout.root])
        _ = rmdir(location + "/" + HubLayout.root + "/" + Self.logsFolder)
        _ = rmdir(location + "/" + HubLayout.root)
    }

    public var canRemoveSegments: Bool { true }

    /// A folder's files can be replaced (a sync tool's conflict copy, a damaged copy mended).
    public var segmentsNeverChange: Bool { false }

    /// A log is read afresh at every call, and listed whole: a folder has no index to list part of one
    /// by. The cards' and records' listings kept for paging through them are forgotten.
    public func refresh(after positions: [DeviceID: Int64]) { listings.forget() }

    /// The folder of `device`'s log, also what the daemon watches for new segments.
    public func deviceFolder(_ device: DeviceID) -> String { devicesFolder + "/" + device.rawValue }

    /// The folder holding every device's log.
    public var devicesFolder: String { location + "/" + HubLayout.root + "/" + Self.logsFolder }

    /// Where the devices' cards are.
    var cardsFolder: String { location + "/" + HubLayout.root + "/" + HubLayout.cards }

    /// Where the key epochs' records are.
    var epochsFolder: String { location + "/" + HubLayout.root + "/" + HubLayout.epochs }

    func deviceComponents(_ device: DeviceID) -> [String] { [HubLayout.root, Self.logsFolder, device.rawValue] }

    /// What a failing file operation in the hub means: a file that cannot be used (not a regular file,
    /// too large, one this user may not read or move, or one its owner holds a lease on: in a shared
    /// hub, any member can plant one), which is that file's problem alone; or a hub that cannot be
    /// reached.
    func hubFailure(_ error: FileSystem.Failure) -> SyncError {
        if error.kind == .badData || [EACCES, EPERM, ELOOP, ENOTDIR, EWOULDBLOCK].contains(error.code) {
            return SyncError.unusableFile(hub: location, reason: error.description, code: .errno(error.code))
        }
        return SyncError.hubUnavailable(hub: location, reason: error.reason, code: .errno(error.code))
    }

    /// A hub folder that vanished (an unmounted disk, a stopped share) is unavailable, not empty.
    func available() throws(SyncError) {
        guard FileSystem.exists(location + "/" + HubLayout.root + "/" + HubLayout.descriptor) else {
            throw SyncError.hubUnavailable(hub: location, reason: "\(location)/\(HubLayout.root) is missing (is the folder mounted?)")
        }
    }

    /// Runs a file operation, its failure said as the hub being unavailable, or as a file in it that
    /// cannot be used.
    func hubCall<T>(_ body: () throws -> T) throws(SyncError) -> T {
        do { return try body() } catch let error as FileSystem.Failure {
            throw hubFailure(error)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.hubUnavailable(hub: location, reason: "\(error)")
        }
    }
}
