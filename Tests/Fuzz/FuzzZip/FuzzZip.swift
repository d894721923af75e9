import FuzzSupport
import Glibc

@testable import AppleHealth

/// The Apple Health zip reader on any bytes: the zip's directory, its entry, and the entry inflated
/// through zlib end in the XML handed on, all of it and what its checksum and size say, or in a
/// `HealthImportError` that says what is wrong with the file; never a crash, a hang or a read past
/// what the file holds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzZip(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var template = Array("/tmp/fuzz-zip-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { fatalError("mkstemp: \(String(cString: strerror(errno)))") }
    let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer {
        close(descriptor)
        unlink(path)
    }
    var written = 0
    while written < size {
        let count = write(descriptor, data + written, size - written)
        guard count > 0 else { fatalError("write: \(String(cString: strerror(errno)))") }
        written += count
    }
    do {
        let file = try ExportFile(path: path)
        var handed: UInt64 = 0
        var lastDone: Int64 = -1
        try file.stream(progress: { done, total in
            if done < lastDone || done > total { fatalError("progress went from \(lastDone) to \(done) of \(total)") }
            lastDone = done
        }) { handed += UInt64($0.count) }
        if !file.isZip && handed != UInt64(size) { fatalError("an XML file of \(size) bytes handed on \(handed)") }
    } catch is HealthImportError {
    } catch {
        fatalError("an error that is not a HealthImportError: \(error)")
    }
    return 0
}

@main struct FuzzZip {
    static func main() { FuzzMain.run(fuzzZip) }
}
