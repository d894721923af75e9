/// Where the linker sends the calls into swift-corelibs Foundation that no code of journal-syncd can
/// make, but that objects linked whole still name: NIOFoundationCompat's `JSONSerialization` and
/// `RunLoop` helpers (PostgresNIO and AsyncHTTPClient depend on the module; SwiftPM links every object
/// of a dependency). Named, they would bring in Foundation, CoreFoundation and ICU's 34 MB of data.
/// Reached, the program stops and says so.
@_cdecl("journal_foundation_left_out")
public func foundationLeftOut() -> Never {
    fatalError("journal-syncd is built without swift-corelibs Foundation, and something called into it (JSONSerialization or RunLoop)")
}
