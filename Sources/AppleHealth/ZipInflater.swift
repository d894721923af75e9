import SystemZlib

/// A zip entry's deflated data inflated through the system's zlib (raw deflate, as a zip stores it),
/// with the CRC-32 of what came out, to be held against the checksum the zip's directory gives.
final class ZipInflater {
    /// What the input became: more to give, the end of the deflated data, or data that is damaged.
    enum Progress: Equatable {
        case needsInput
        case ended
        case damaged
    }

    /// zlib keeps the stream's address between calls: it is allocated, not a stored property that
    /// `&` would hand over as a temporary.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var output: [UInt8]
    private(set) var checksum: UInt32 = 0
    private(set) var inflatedCount: UInt64 = 0
    private var hasEnded = false

    /// A zlib that cannot start (no memory) is reported as damaged data at the first input.
    private let started: Bool

    init(outputSize: Int) {
        output = [UInt8](repeating: 0, count: outputSize)
        stream.initialize(to: z_stream())
        started = journal_inflate_init_raw(stream) == Z_OK
    }

    deinit {
        if started { inflateEnd(stream) }
        stream.deallocate()
    }

    /// Inflates `input`, handing what comes out to `consume` a buffer at a time; rethrows what
    /// `consume` throws. Input past the end of the deflated data is not read.
    func inflate(_ input: UnsafeRawBufferPointer, _ consume: (UnsafeRawBufferPointer) throws -> Void) rethrows -> Progress {
        guard started else { return .damaged }
        guard !hasEnded else { return .ended }
        guard let base = input.baseAddress, !input.isEmpty else { return .needsInput }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        defer { stream.pointee.next_in = nil; stream.pointee.avail_in = 0 }
        while true {
            let (result, produced) = output.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = uInt(buffer.count)
                let result = SystemZlib.inflate(stream, Z_NO_FLUSH)
                return (result, buffer.count - Int(stream.pointee.avail_out))
            }
            if produced > 0 {
                try output.withUnsafeBytes { bytes in
                    let out = UnsafeRawBufferPointer(rebasing: bytes[..<produced])
                    checksum = Self.crc32(of: out, continuing: checksum)
                    inflatedCount += UInt64(produced)
                    try consume(out)
                }
            }
            switch result {
            case Z_STREAM_END:
                hasEnded = true
                return .ended
            case Z_OK:
                // Out of input with room left: the caller gives more. Out of room: inflate again.
                if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return .needsInput }
            case Z_BUF_ERROR:
                // No progress was possible: all input is used up.
                return .needsInput
            default:
                // Z_DATA_ERROR, Z_NEED_DICT (a zip's raw deflate never asks for one), Z_MEM_ERROR.
                return .damaged
            }
        }
    }

    /// The CRC-32 of `bytes` continued from `checksum`, as a zip's directory gives it.
    static func crc32(of bytes: UnsafeRawBufferPointer, continuing checksum: UInt32) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return checksum }
        return UInt32(SystemZlib.crc32(uLong(checksum), base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count)))
    }
}
