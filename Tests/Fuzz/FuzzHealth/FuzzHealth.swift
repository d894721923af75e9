import FuzzSupport
import JournalKit

@testable import AppleHealth

let now = Timestamp(milliseconds: 1_795_262_400_000)

/// The Health export scanner on any bytes: the elements it reports, or a `HealthXMLError` saying what
/// is wrong, never a crash; the same whatever chunks the bytes come in (whole, cut in two where a hash
/// of them says, or a byte at a time), as a zip's inflater or a file's reads cut them anywhere; and
/// every caffeine sample it reads is a drink that passes the rules, or a reason it is not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHealth(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var hash: UInt32 = 2_166_136_261
    for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
    let cut = size == 0 ? 0 : Int(hash % UInt32(size + 1))
    let whole = transcript([bytes])
    let halves = transcript([UnsafeRawBufferPointer(rebasing: bytes[..<cut]), UnsafeRawBufferPointer(rebasing: bytes[cut...])])
    if halves != whole { fatalError("cut at \(cut): \(halves.last ?? "") where whole: \(whole.last ?? "")") }
    if size <= 4096 {
        let singles = transcript((0..<size).map { UnsafeRawBufferPointer(rebasing: bytes[$0..<($0 + 1)]) })
        if singles != whole { fatalError("a byte at a time: \(singles.last ?? "") where whole: \(whole.last ?? "")") }
    }
    return 0
}

/// What the scanner told and how it ended, and what each caffeine sample became.
func transcript(_ chunks: [UnsafeRawBufferPointer]) -> [String] {
    var scanner = HealthXMLScanner()
    var told: [String] = []
    func take(_ event: HealthXMLEvent) {
        guard case .start(let element) = event else { return told.append("\(event)") }
        let values = HealthXMLAttributes.Name.allCases.map { element.attributes.value($0).map { "\($0.text)/\($0.length)" } ?? "-" }
        told.append("\(element.kind) \(element.line) \(element.depth) \(element.rootName ?? "") \(values)")
        guard let record = CaffeineRecord(element) else { return }
        switch record.drink(now: now) {
        case .drink(let drink, let kind):
            if (try? drink.validate()) == nil || !EntryRules.allows(drink.consumedAt, now: now) {
                fatalError("a sample became a drink that breaks the rules: \(drink)")
            }
            told.append("\(drink) \(kind.name)")
        case .skipped(let reason):
            told.append(reason)
        }
    }
    do {
        for chunk in chunks { try scanner.scan(chunk, take) }
        try scanner.finish(take)
        told.append("ended")
    } catch {
        told.append("\(error)")
    }
    return told
}

@main struct FuzzHealth {
    static func main() { FuzzMain.run(fuzzHealth) }
}
