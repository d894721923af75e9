/// What stands between an Apple Health `export.xml` and the XML parser, byte by byte, across chunk
/// boundaries:
/// - every document type declaration (`<!DOCTYPE HealthData [ ... ]>`) is left out: it declares
///   nothing the records need, FoundationXML on Linux crashes on its `#IMPLIED` attribute lists, and
///   without it no entity can be declared, so none is expanded (an export that tries is harmless).
///   Every one, not the first: a decoy in a comment must not let the real one through;
/// - control bytes other than tab and line breaks (Health writes vertical tabs into some values) become
///   spaces: XML forbids them, and a parser stops at the first. Those bytes never occur inside UTF-8
///   sequences, so text is otherwise kept as it is.
struct ExportFilter {
    private static let opening = Array("<!DOCTYPE".utf8)
    private var matched = 0
    private var inDoctype = false
    private var inSubset = false
    /// Bytes that may start "<!DOCTYPE", held back until they do or do not. They are printable, so
    /// they need no cleaning.
    private var held: [UInt8] = []

    /// Appends what `input` becomes to `output`.
    mutating func filter(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        for byte in input {
            if inDoctype {
                // Its line breaks stay, so that the parser's line numbers are the file's.
                if byte == 0x0A { output.append(byte) }
                // The declaration ends at the first ">" after its subset, or at its first ">" when it has none.
                if byte == UInt8(ascii: "[") { inSubset = true }
                if byte == UInt8(ascii: "]") { inSubset = false }
                if byte == UInt8(ascii: ">") && !inSubset { inDoctype = false }
            } else if byte == Self.opening[matched] {
                held.append(byte)
                matched += 1
                if matched == Self.opening.count {
                    inDoctype = true
                    held.removeAll(keepingCapacity: true)
                    matched = 0
                }
            } else {
                if matched > 0 {
                    output.append(contentsOf: held)
                    held.removeAll(keepingCapacity: true)
                    matched = 0
                }
                if byte == Self.opening[0] {
                    held.append(byte)
                    matched = 1
                } else {
                    output.append(Self.clean(byte))
                }
            }
        }
    }

    /// What is still held back at the end of the input.
    mutating func finish(into output: inout [UInt8]) {
        output.append(contentsOf: held)
        held.removeAll()
    }

    private static func clean(_ byte: UInt8) -> UInt8 {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D ? 0x20 : byte
    }
}
