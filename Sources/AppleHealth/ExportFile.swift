import JournalKit

import Glibc

/// The bytes of an export's `export.xml`, from the file itself or inflated from the `export.zip` the
/// Health app writes, handed on a chunk at a time as they are read. Only a regular file is read: a
/// FIFO or a device would make the import wait forever or read without end.
final class ExportFile {
    private let descriptor: Int32
    private let path: String
    private let size: UInt64
    /// The zip's entry holding the XML; nil when the file is the XML.
    private let entry: ZipExportEntry?

    /// Bytes read (or inflated) at a time.
    static let chunkSize = 64 * 1024

    /// True when the XML comes out of a zip, whose checksum says, once all of it was inflated,
    /// whether what was read is what was zipped.
    var isZip: Bool { entry != nil }

    init(path: String) throws(HealthImportError) {
        self.path = path
        let opened = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard opened >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(opened)
            throw .notAFile(path: path)
        }
        // A regular file: reads never wait, so it may block as reads of files do.
        _ = fcntl(opened, F_SETFL, fcntl(opened, F_GETFL) & ~O_NONBLOCK)
        descriptor = opened
        size = UInt64(info.st_size)
        var magic = [UInt8](repeating: 0, count: 4)
        guard pread(opened, &magic, 4, 0) == 4, magic == [0x50, 0x4B, 0x03, 0x04] else {
            entry = nil
            return
        }
        do throws(HealthImportError) {
            let found = try ZipExportEntry.find(in: opened, size: size, path: path)
            if found.isEncrypted { throw HealthImportError.encrypted(path: path) }
            guard found.method == 0 || found.method == 8 else {
                throw HealthImportError.unsupportedCompression(path: path, entry: found.name, method: found.method)
            }
            guard found.dataOffset <= size, found.compressedSize <= size - found.dataOffset else {
                throw HealthImportError.damagedZip(path: path, reason: "\(found.name) in it runs past its end: it was cut short")
            }
            entry = found
        } catch {
            close(opened)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// Hands the XML to `consume` a chunk at a time, and tells `progress` how many bytes of the file
    /// were read of how many: for a zip the compressed bytes of the entry, so that the bar moves as
    /// the file is read however much it inflates to. Rethrows what `consume` throws; a zip whose entry
    /// does not inflate, or not to what its checksum and size say, is damaged.
    func stream(progress: (_ done: Int64, _ total: Int64) -> Void, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let entry else { return try streamFile(progress: progress, consume) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        let inflater = ZipInflater(outputSize: Self.chunkSize)
        var read: UInt64 = 0
        var checksum: UInt32 = 0
        var ended = false
        while read < entry.compressedSize {
            let count = Int(min(UInt64(Self.chunkSize), entry.compressedSize - read))
            try readFully(buffer.baseAddress!, count, at: entry.dataOffset + read)
            read += UInt64(count)
            progress(Int64(read), Int64(entry.compressedSize))
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            if entry.method == 0 {
                guard read <= entry.uncompressedSize else { throw damaged(entry, "does not match its checksum") }
                checksum = ZipInflater.crc32(of: chunk, continuing: checksum)
                try consume(chunk)
                continue
            }
            // What inflates past the size the directory gives is never handed on: a few kilobytes
            // that inflate to gigabytes are refused at the first byte too many.
            let progress = try inflater.inflate(chunk) { inflated in
                guard inflater.inflatedCount <= entry.uncompressedSize else { throw damaged(entry, "does not match its checksum") }
                try consume(inflated)
            }
            switch progress {
            case .needsInput: continue
            case .ended: ended = true
            case .damaged: throw damaged(entry, "cannot be inflated: its compressed data is damaged")
            }
            break
        }
        if entry.method == 8 {
            guard ended else { throw damaged(entry, "cannot be inflated: its compressed data is damaged") }
            checksum = inflater.checksum
        }
        let inflated = entry.method == 0 ? read : inflater.inflatedCount
        guard checksum == entry.checksum, inflated == entry.uncompressedSize else {
            throw damaged(entry, "does not match its checksum")
        }
    }

    private func damaged(_ entry: ZipExportEntry, _ reason: String) -> HealthImportError {
        .damagedZip(path: path, reason: "\(entry.name) in it \(reason)")
    }

    private func streamFile(progress: (Int64, Int64) -> Void, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 1)
        defer { buffer.deallocate() }
        var done: Int64 = 0
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw HealthImportError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            guard count > 0 else { return }
            done += Int64(count)
            progress(done, Int64(size))
            try consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    private func readFully(_ into: UnsafeMutableRawPointer, _ count: Int, at offset: UInt64) throws(HealthImportError) {
        var done = 0
        while done < count {
            let got = pread(descriptor, into + done, count - done, off_t(offset) + off_t(done))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw .unreadable(path: path, reason: got < 0 ? String(cString: strerror(errno)) : "it ended while read") }
            done += got
        }
    }
}
