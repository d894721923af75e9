import FuzzSupport
import JournalKit

/// The time parser on any text: it answers an instant or a `TimeParseError`, never crashes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTime(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let expression = TimeExpression(now: Timestamp(milliseconds: 1_795_262_400_000))
    _ = try? expression.parse(text)
    _ = try? expression.parse(text, allowFuture: true)
    return 0
}

@main struct FuzzTime {
    static func main() { FuzzMain.run(fuzzTime) }
}
