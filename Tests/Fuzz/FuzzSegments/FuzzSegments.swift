import FuzzSupport
import JournalKit

@testable import JournalSync

let device = DeviceID(rawValue: "22222222-2222-4222-8222-222222222222")
let key = try! SyncKey(hex: String(repeating: "ab", count: 32), source: "the fuzz key")
let author = SegmentAuthor(signingKey: DeviceKeys().signing.publicKey, signedFrom: nil)

/// A segment's plaintext (what opens with the key: written by a device, or by anyone holding the key)
/// and a segment's sealed bytes: decoded or refused, never a crash. The first byte picks the format.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSegments(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    _ = try? SegmentCodec.decode(bytes, format: 1 + data[0] % SegmentCodec.format, device: device)
    _ = try? SegmentSeal.open(bytes, keys: { _ in key }, author: author, hubID: HubID(rawValue: "fuzz"), device: device, name: SegmentName(first: 1, last: 2))
    return 0
}

@main struct FuzzSegments {
    static func main() { FuzzMain.run(fuzzSegments) }
}
