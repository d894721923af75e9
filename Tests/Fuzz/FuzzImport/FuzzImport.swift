import FuzzSupport
import JournalKit

/// The import readers (JSON and CSV exports) on any bytes: drinks that pass the rules, or an
/// `ImportFormatError` naming the place, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let export = try? DrinkExchange.parse(bytes, catalog: .builtIn, now: Timestamp(milliseconds: 1_795_262_400_000)) {
        for drink in export.drinks where (try? drink.validate()) == nil { fatalError("an import let through a drink that breaks the rules") }
        for custom in export.customDrinks where (try? custom.validate()) == nil { fatalError("an import defined a drink that breaks the rules") }
    }
    return 0
}

@main struct FuzzImport {
    static func main() { FuzzMain.run(fuzzImport) }
}
