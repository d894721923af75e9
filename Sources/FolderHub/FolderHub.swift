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
    static let folderName = "journal-hub-v1"
    /// The hub format this journal writes and reads.
    public static let format = 1
    /// The most `hub.json` can be.
    static let descriptorLimit = 64 * 1024

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
        if try present(folder + "/" + folderName + "/hub.json") { return true }
        if try present(folder + "/" + folderName) {
            throw SyncError.corruptHub(
                hub: folder,
                problem: "\(folderName) is there but its hub.json is not (a sync tool may still be copying it); "
                    + "wait for it to arrive, or remove \(folderName) if it is left over")
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

    /// Paths in the hub that users of this machine other than its owner can read (for a shared hub,
    /// users outside its group): a sync tool that ignores permissions made them 0644 and 0755. Up to
    /// `limit` of them, with the number found; and the symbolic links in it, which journal never
    /// follows and which no chmod changes: someone put them there, and they are to be removed.
    public func exposedPaths(limit: Int = 5) -> (paths: [String], count: Int, links: [String]) {
        let mask: mode_t = isShared ? 0o007 : 0o077
        var found: [String] = []
        var links: [String] = []
        var count = 0
        func check(_ components: [String], _ name: String) {
            var info = stat()
            let path = ([location] + components + [name]).joined(separator: "/")
            guard lstat(path, &info) == 0 else { return }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                if links.count < limit { links.append(path) }
                return
            }
            guard info.st_mode & mask & 0o444 != 0 else { return }
            count += 1
            if found.count < limit { found.append(path + " (" + String(info.st_mode & 0o7777, radix: 8) + ")") }
        }
        check([], Self.folderName)
        check([Self.folderName], "hub.json")
        check([Self.folderName], "devices")
        check([Self.folderName], "cards")
        check([Self.folderName], "epochs")
        for name in (try? files.names(in: [Self.folderName, "epochs"])) ?? [] { check([Self.folderName, "epochs"], name) }
        for name in (try? files.names(in: [Self.folderName, "cards"])) ?? [] { check([Self.folderName, "cards"], name) }
        for device in (try? files.names(in: [Self.folderName, "devices"])) ?? [] {
            check([Self.folderName, "devices"], device)
            for name in (try? files.names(in: [Self.folderName, "devices", device])) ?? [] {
                check([Self.folderName, "devices", device], name)
            }
        }
        return (found, count, links)
    }

    /// Opens the hub in `folder`, refusing a newer format or another hub's key before reading anything else.
    /// With `expecting`, a hub there of another id (a sync tool kept another machine's hub.json) is
    /// refused as replaced before its key is looked at.
    public static func open(folder: String, key: SyncKey, expecting hubID: HubID? = nil) throws(SyncError) -> FolderHub {
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
            guard EpochRecord.standing(ofKey: key, records: try hub.allEpochRecordsNow(), hubID: hub.id, firstKeyCheck: descriptor.keyCheck).epoch != nil
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
            _ = try files.folder([Self.folderName, "devices"], creating: true)
            let descriptor = HubDescriptor(format: Self.format, hubID: id, keyCheck: key.check, shared: isShared ? true : nil)
            // Never over a hub.json that arrived meanwhile: that hub stays, and joining it needs its key.
            try files.writeNew(descriptor.encoded, as: "hub.json", in: [Self.folderName])
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

    public func describe() -> HubDescription {
        let exposed = exposedPaths()
        var warnings = exposed.links.map {
            "\($0) is a symbolic link inside the hub, which journal never follows and no chmod changes: remove it (rm '\($0)')."
        }
        if exposed.count > 0 {
            warnings.insert(
                "\(exposed.count) file\(exposed.count == 1 ? "" : "s") and folders of the hub can be read by other users of "
                    + "this machine, such as \(exposed.paths.joined(separator: ", ")): a sync tool that ignores permissions made "
                    + "them so. What they hold is encrypted, but who syncs how often is not. Fix it with: "
                    + "chmod -R \(isShared ? "o" : "go")-rwx '\(location)/\(Self.folderName)'", at: 0)
        }
        let sharing = HubFact(label: "Shared", key: "shared", value: isShared ? "with the folder's group" : "no, this user's alone")
        return HubDescription(facts: [sharing], warnings: warnings, rings: false)
    }

    /// A folder hub does not ring: inotify on it is this machine's own.
    public func lastNotification() -> Timestamp? { nil }

    /// Nothing is held open.
    public func close() {}

    /// Removes a hub this process just made and nothing else used: its `hub.json` and empty folders.
    public func unmake() {
        try? files.remove("hub.json", in: [Self.folderName])
        _ = rmdir(location + "/" + Self.folderName + "/devices")
        _ = rmdir(location + "/" + Self.folderName)
    }

    public var canRemoveSegments: Bool { true }

    /// A folder's files can be replaced (a sync tool's conflict copy, a damaged copy mended).
    public var segmentsNeverChange: Bool { false }

    /// A log is read afresh at every call, and listed whole: a folder has no index to list part of one
    /// by. The cards' and records' listings kept for paging through them are forgotten.
    public func refresh(after positions: [DeviceID: Int64]) { listings.forget() }

    public func devices() throws -> [DeviceID] {
        try available()
        let names: [String]
        do { names = try files.names(in: [Self.folderName, "devices"]) } catch where error.isMissing {
            // hub.json is there (`available`), and a sync tool that carries no empty folder has not made
            // `devices` yet: no device has published to this copy. Publishing makes it.
            return []
        } catch {
            // The folder of every log: a hub this user cannot read at all.
            if error.code == EACCES || error.code == EPERM { throw SyncError.permissionDenied(path: error.path) }
            throw hubFailure(error)
        }
        return names.filter(UUIDText.isCanonical).sorted().map { DeviceID(rawValue: $0) }
    }

    public func log(of device: DeviceID) throws -> DeviceLog {
        try available()
        let names: [String]
        do {
            names = try files.names(in: deviceComponents(device))
        } catch where error.isMissing {
            return DeviceLog()
        } catch {
            throw hubFailure(error)
        }
        var log = DeviceLog()
        for name in names where !name.hasPrefix(".") {
            guard let segment = SegmentName(fileName: name) else {
                log.strays.append(name)
                continue
            }
            // Gone between the listing and now: a sync tool at work; the next sync sees it as it is.
            guard let fingerprint = try hubCall({ try files.fingerprint(of: name, in: deviceComponents(device)) }) else { continue }
            log.segments.append(SegmentEntry(name: segment, fingerprint: fingerprint))
        }
        log.segments.sort { $0.name < $1.name }
        log.strays.sort()
        return log
    }

    public func read(_ segment: SegmentName, of device: DeviceID) throws -> [UInt8] {
        try hubCall {
            try files.read(segment.fileName, in: deviceComponents(device), limit: SegmentName.maximumBytes, what: "a segment")
        }
    }

    public func write(_ bytes: [UInt8], as segment: SegmentName, of device: DeviceID) throws -> String {
        try available()
        do {
            return try files.writeNew(bytes, as: segment.fileName, in: deviceComponents(device))
        } catch {
            if error.code == EEXIST { throw SyncError.segmentExists(segment.fileName, hub: location, code: .errno(EEXIST)) }
            throw SyncError.hubUnavailable(hub: location, reason: error.reason, code: .errno(error.code))
        }
    }

    public func remove(_ segment: SegmentName, of device: DeviceID) throws {
        try hubCall { try files.remove(segment.fileName, in: deviceComponents(device)) }
    }

    public func setAside(_ name: String, of device: DeviceID) throws {
        try available()
        try hubCall { try files.move(name, in: deviceComponents(device), to: [Self.folderName, "set-aside", device.rawValue]) }
    }

    /// Temporaries of segment writes that died; a sync tool would copy them to every machine. Other
    /// tools' dot-names are left alone.
    public func removeLeftovers(of device: DeviceID) throws {
        do { try files.removeLeftovers(in: deviceComponents(device), olderMarker: ".seg.tmp-") } catch where error.isMissing { return } catch {
            throw SyncError.hubUnavailable(hub: location, reason: error.reason, code: .errno(error.code))
        }
    }

    public func cardList(after: DeviceID?, limit: Int) throws(SyncError) -> [HubListing<DeviceID>] {
        try listing(in: "cards", after: after, limit: limit) { name in
            guard name.hasSuffix(".card") else { return nil }
            let id = String(name.dropLast(".card".count))
            return UUIDText.isCanonical(id) ? DeviceID(rawValue: id) : nil
        }
    }

    public func cards(of devices: [DeviceID]) throws(SyncError) -> [DeviceID: Result<[UInt8], SyncError>] {
        try available()
        var cards: [DeviceID: Result<[UInt8], SyncError>] = [:]
        for device in devices {
            let read = Result { () throws(SyncError) -> [UInt8] in
                try hubCall { try files.read(device.rawValue + ".card", in: [Self.folderName, "cards"], limit: CardSeal.maximumBytes, what: "a device card") }
            }
            // Gone since it was listed (its device replaced it, or someone removed it): not there.
            if case .failure(let error) = read, error.hubCondition == .unreachable, !FileSystem.exists(cardsFolder + "/" + device.rawValue + ".card") { continue }
            cards[device] = read
        }
        return cards
    }

    /// The names in the hub's folder `folder` that `parse` takes, past `after` in their order, at most
    /// `limit`, each with its fingerprint (`FolderAccess.identity`): a missing folder holds none.
    private func listing<Name: Comparable>(
        in folder: String, after: Name?, limit: Int, _ parse: @Sendable (String) -> Name?
    ) throws(SyncError) -> [HubListing<Name>] {
        try available()
        // The folder's names in order, read again only when the folder changed: paging through a hundred
        // thousand junk names lists and sorts them once, not once a page.
        let sorted: [String]
        do {
            sorted = try listings.names(of: folder, in: files, parentComponents: [Self.folderName]) { names in
                names.compactMap { name in parse(name).map { (name, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
            }
        } catch where error.isMissing { return [] } catch {
            throw hubFailure(error)
        }
        // The first name past `after`, by halves.
        var low = 0, high = sorted.count
        if let after {
            while low < high {
                let middle = (low + high) / 2
                if let parsed = parse(sorted[middle]), parsed <= after { low = middle + 1 } else { high = middle }
            }
        }
        let page = Array(sorted[low..<min(low + limit, sorted.count)])
        // A file gone between the listing and its look is not listed.
        let identities = try hubCall { try files.identities(of: page, in: [Self.folderName, folder]) }
        return zip(page, identities).compactMap { name, identity in
            guard let identity, let parsed = parse(name) else { return nil }
            return HubListing(name: parsed, fingerprint: identity)
        }
    }

    public func writeCard(_ bytes: [UInt8], of device: DeviceID) throws {
        try available()
        do {
            // What a card's write that died left here; a folder not made yet has none, and a temporary
            // that stays is only untidy: the card is written either way.
            try? files.removeLeftovers(in: [Self.folderName, "cards"], olderMarker: ".card.tmp-")
            _ = try files.writeNew(bytes, as: device.rawValue + ".card", in: [Self.folderName, "cards"], replacing: true)
        } catch {
            // `cards` made a file or a link by another member is the cards' failure, not the hub's.
            throw hubFailure(error)
        }
    }

    public func epochList(after: KeyEpoch?, limit: Int) throws(SyncError) -> [HubListing<KeyEpoch>] {
        try listing(in: "epochs", after: after, limit: limit) { name in KeyEpoch(fileName: name).flatMap { $0.number > 0 ? $0 : nil } }
    }

    public func epochRecords(_ epochs: [KeyEpoch]) throws(SyncError) -> [KeyEpoch: Result<[UInt8], SyncError>] {
        try available()
        var records: [KeyEpoch: Result<[UInt8], SyncError>] = [:]
        for epoch in epochs {
            let name = epoch.fileName
            records[epoch] = Result { () throws(SyncError) -> [UInt8] in
                try hubCall { try files.read(name, in: [Self.folderName, "epochs"], limit: EpochRecord.maximumBytes, what: "a key epoch's record") }
            }
        }
        return records
    }

    /// Every key epoch record in the folder, for opening the hub: `allEpochRecords` without suspending.
    func allEpochRecordsNow() throws(SyncError) -> [KeyEpoch: Result<[UInt8], SyncError>] {
        try epochRecords(try epochList(after: nil, limit: .max).map(\.name))
    }

    public func writeEpochRecord(_ bytes: [UInt8], as epoch: KeyEpoch) throws {
        try available()
        do {
            try? files.removeLeftovers(in: [Self.folderName, "epochs"], olderMarker: ".epoch.tmp-")
            _ = try files.writeNew(bytes, as: epoch.fileName, in: [Self.folderName, "epochs"])
        } catch {
            throw hubFailure(error)
        }
    }

    /// The folder of `device`'s log, also what the daemon watches for new segments.
    public func deviceFolder(_ device: DeviceID) -> String { devicesFolder + "/" + device.rawValue }

    /// The folder holding every device's log.
    public var devicesFolder: String { location + "/" + Self.folderName + "/devices" }

    /// Where the devices' cards are.
    var cardsFolder: String { location + "/" + Self.folderName + "/cards" }

    /// Where the key epochs' records are.
    var epochsFolder: String { location + "/" + Self.folderName + "/epochs" }

    private func deviceComponents(_ device: DeviceID) -> [String] { [Self.folderName, "devices", device.rawValue] }

    /// What a failing file operation in the hub means: a file that cannot be used (not a regular file,
    /// too large, or one this user may not read or move: in a shared hub, any member can plant one),
    /// which is that file's problem alone; or a hub that cannot be reached.
    private func hubFailure(_ error: FileSystem.Failure) -> SyncError {
        if error.kind == .badData || [EACCES, EPERM, ELOOP, ENOTDIR].contains(error.code) {
            return SyncError.unusableFile(hub: location, reason: error.description, code: .errno(error.code))
        }
        return SyncError.hubUnavailable(hub: location, reason: error.reason, code: .errno(error.code))
    }

    /// A hub folder that vanished (an unmounted disk, a stopped share) is unavailable, not empty.
    private func available() throws(SyncError) {
        guard FileSystem.exists(location + "/" + Self.folderName + "/hub.json") else {
            throw SyncError.hubUnavailable(hub: location, reason: "\(location)/\(Self.folderName) is missing (is the folder mounted?)")
        }
    }

    /// Runs a file operation, its failure said as the hub being unavailable, or as a file in it that
    /// cannot be used.
    private func hubCall<T>(_ body: () throws -> T) throws(SyncError) -> T {
        do { return try body() } catch let error as FileSystem.Failure {
            throw hubFailure(error)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.hubUnavailable(hub: location, reason: "\(error)")
        }
    }
}
