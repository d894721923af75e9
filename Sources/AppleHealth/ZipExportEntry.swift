import Glibc

/// Where an export.zip keeps its `export.xml`, read from the zip's own directory (the end record, its
/// ZIP64 form, the central directory, the entry's local header), a few bounded reads. ZIPFoundation's
/// `Archive` does not show whether an entry is encrypted or how it is compressed, and lists no entry
/// of a zip encrypted the usual way (`zip -P`): a person would be told their zip holds no export.
struct ZipExportEntry {
    /// The entry's name in the zip: `apple_health_export/export.xml`.
    let name: String
    /// 0 stored, 8 deflated; any other method is refused.
    let method: UInt16
    let isEncrypted: Bool
    let checksum: UInt32
    let compressedSize: UInt64
    let uncompressedSize: UInt64
    /// Where the entry's data starts in the file.
    let dataOffset: UInt64

    /// The zip's first entry named export.xml (at its root or in a folder), from the zip open as
    /// `descriptor`, `size` bytes long; `path` names it in messages.
    static func find(in descriptor: Int32, size: UInt64, path: String) throws(HealthImportError) -> ZipExportEntry {
        let reader = Reader(descriptor: descriptor, size: size, path: path)
        var (entries, directoryStart, directorySize) = try reader.endOfDirectory()
        guard directoryStart <= size, directorySize <= size - directoryStart else {
            throw reader.damaged("its directory runs past its end: it was cut short")
        }
        var offset = directoryStart
        while entries > 0, offset + 46 <= directoryStart + directorySize {
            entries -= 1
            let header = try reader.bytes(46, at: offset)
            guard header.starts(with: [0x50, 0x4B, 0x01, 0x02]) else { throw reader.damaged("its directory is damaged") }
            let (nameLength, extraLength, commentLength) = (header.u16(28), header.u16(30), header.u16(32))
            let nameBytes = try reader.bytes(Int(nameLength), at: offset + 46)
            let name = String(decoding: nameBytes, as: UTF8.self)
            if name == "export.xml" || name.hasSuffix("/export.xml") {
                let extra = try reader.bytes(Int(extraLength), at: offset + 46 + UInt64(nameLength))
                return try entry(name: name, header: header, extra: extra, reader: reader)
            }
            offset += 46 + UInt64(nameLength) + UInt64(extraLength) + UInt64(commentLength)
        }
        throw .noExportInZip(path: path)
    }

    /// The entry whose central directory header is `header`: its sizes and offset completed from its
    /// ZIP64 extra field when they did not fit, its data found after its local header.
    private static func entry(name: String, header: [UInt8], extra: [UInt8], reader: Reader) throws(HealthImportError) -> ZipExportEntry {
        var uncompressed = UInt64(header.u32(24))
        var compressed = UInt64(header.u32(20))
        var localOffset = UInt64(header.u32(42))
        var field = 0
        while field + 4 <= extra.count {
            let (id, length) = (extra.u16(field), Int(extra.u16(field + 2)))
            if id == 1 {
                // The ZIP64 field holds, in this order, those of the three that did not fit in 32 bits.
                var at = field + 4
                let end = min(extra.count, at + length)
                func next() throws(HealthImportError) -> UInt64 {
                    guard at + 8 <= end else { throw reader.damaged("its directory is damaged") }
                    defer { at += 8 }
                    return extra.u64(at)
                }
                if uncompressed == 0xFFFF_FFFF { uncompressed = try next() }
                if compressed == 0xFFFF_FFFF { compressed = try next() }
                if localOffset == 0xFFFF_FFFF { localOffset = try next() }
            }
            field += 4 + length
        }
        let local = try reader.bytes(30, at: localOffset)
        guard local.starts(with: [0x50, 0x4B, 0x03, 0x04]) else {
            throw reader.damaged("\(name) in it has no header where its directory says")
        }
        let flags = header.u16(8) | local.u16(6)
        return ZipExportEntry(
            name: name, method: header.u16(10), isEncrypted: flags & 1 != 0, checksum: header.u32(16), compressedSize: compressed,
            uncompressedSize: uncompressed, dataOffset: localOffset + 30 + UInt64(local.u16(26)) + UInt64(local.u16(28)))
    }

    /// Bounded reads of the zip, each checked to be whole.
    private struct Reader {
        let descriptor: Int32
        let size: UInt64
        let path: String

        func damaged(_ reason: String) -> HealthImportError { .damagedZip(path: path, reason: reason) }

        func bytes(_ count: Int, at offset: UInt64) throws(HealthImportError) -> [UInt8] {
            guard offset <= size, UInt64(count) <= size - offset else {
                throw damaged("it ends where its directory says there is more: it was cut short")
            }
            var buffer = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let read = buffer.withUnsafeMutableBytes {
                    pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                }
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else {
                    throw .unreadable(path: path, reason: read < 0 ? String(cString: strerror(errno)) : "it ended while read")
                }
                done += read
            }
            return buffer
        }

        /// The number of entries, where the central directory starts and its size, from the end of
        /// central directory record (found backwards past a comment of up to 64 KiB) or its ZIP64 form.
        func endOfDirectory() throws(HealthImportError) -> (entries: UInt64, start: UInt64, size: UInt64) {
            let tailLength = Int(min(size, 22 + 0xFFFF))
            let tail = try bytes(tailLength, at: size - UInt64(tailLength))
            let signature: [UInt8] = [0x50, 0x4B, 0x05, 0x06]
            guard let at = stride(from: tailLength - 22, through: 0, by: -1).first(where: { tail[$0..<($0 + 4)].elementsEqual(signature) })
            else { throw damaged("it has no zip directory at its end: it was cut short, or is not a zip") }
            let record = Array(tail[at..<(at + 22)])
            let (entries, directorySize, directoryStart) = (record.u16(10), record.u32(12), record.u32(16))
            guard entries == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryStart == 0xFFFF_FFFF else {
                return (UInt64(entries), UInt64(directoryStart), UInt64(directorySize))
            }
            let recordOffset = size - UInt64(tailLength) + UInt64(at)
            guard recordOffset >= 20 else { throw damaged("its ZIP64 directory is missing") }
            let locator = try bytes(20, at: recordOffset - 20)
            guard locator.starts(with: [0x50, 0x4B, 0x06, 0x07]) else { throw damaged("its ZIP64 directory is missing") }
            let zip64 = try bytes(56, at: locator.u64(8))
            guard zip64.starts(with: [0x50, 0x4B, 0x06, 0x06]) else { throw damaged("its ZIP64 directory is damaged") }
            return (zip64.u64(32), zip64.u64(48), zip64.u64(40))
        }
    }
}

extension [UInt8] {
    /// Little-endian integers at `offset`, as a zip writes them.
    fileprivate func u16(_ offset: Int) -> UInt16 { UInt16(self[offset]) | UInt16(self[offset + 1]) << 8 }
    fileprivate func u32(_ offset: Int) -> UInt32 { UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16 }
    fileprivate func u64(_ offset: Int) -> UInt64 { UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32 }
}
