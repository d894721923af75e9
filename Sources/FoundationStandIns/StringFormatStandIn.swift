import FoundationEssentials
import Glibc

extension String {
    /// Stands in for swift-corelibs Foundation's `String(format:locale:arguments:)`, which PostgresNIO
    /// calls ("%02x", "%04x"): the same signature, so the linker can give PostgresNIO's call this
    /// function (Package.swift, `FoundationStandIns`), and with Foundation's left out, ICU with it.
    /// The C library formats, in the C locale whatever `locale` says; `%@` (an object's description)
    /// is not a C conversion, and is refused before it is read.
    public init(standInFormat format: __shared String, locale: __shared Locale?, arguments: __shared [CVarArg]) {
        precondition(!format.split(separator: "%%", omittingEmptySubsequences: false).contains { $0.contains("%@") },
                     "journal's String(format:) has no %@: \(format)")
        var capacity = 64
        while true {
            var buffer = [CChar](repeating: 0, count: capacity)
            let needed = withVaList(arguments) { list in
                buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, capacity, format, list) }
            }
            precondition(needed >= 0, "vsnprintf refused the format \(format)")
            if Int(needed) < capacity {
                self = String(decoding: buffer[..<Int(needed)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return
            }
            capacity = Int(needed) + 1
        }
    }
}
