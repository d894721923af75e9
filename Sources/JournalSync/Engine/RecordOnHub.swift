import JournalKit

/// One version of one record, as a hub holds it: what a journal moving to the hub found there, and does
/// not publish again.
struct RecordOnHub: Hashable {
    let kind: RecordKind
    let key: String
    let version: RecordVersion

    init(_ record: AnyReplicated) {
        kind = record.kind
        key = record.key
        version = record.version
    }
}

/// What moving to a hub published of other devices' records.
struct MovedRecords {
    let device: DeviceID
    private(set) var count = 0
    private(set) var devices: Set<DeviceID> = []

    init(device: DeviceID) { self.device = device }

    mutating func note(_ records: [AnyReplicated]) {
        for record in records where record.version.origin != device {
            count += 1
            devices.insert(record.version.origin)
        }
    }
}
