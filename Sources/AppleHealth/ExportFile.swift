import Dispatch
import Foundation
import JournalKit
@preconcurrency import ZIPFoundation

import Glibc

/// The bytes of an export's `export.xml`, from the file itself or inflated from the `export.zip` the
/// Health app writes, read a chunk at a time. Only a regular file is read: a FIFO or a device would
/// make the import wait forever or read without end.
final class ExportFile {
    /// The XML's size in bytes, for the progress line.
    let size: Int64
    private let descriptor: Int32
    /// The thread inflating a zip's entry into the pipe `descriptor` reads, and how it ended.
    private let inflating: Inflating?

    private final class Inflating: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var failure: String?
    }

    init(path: String) throws {
        let opened = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard opened >= 0 else { throw HealthImportError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(opened, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(opened)
            throw HealthImportError.notAFile(path: path)
        }
        var magic = [UInt8](repeating: 0, count: 4)
        let count = pread(opened, &magic, 4, 0)
        guard count == 4, magic == [0x50, 0x4B, 0x03, 0x04] else {
            // Not a zip: the XML itself, read from its descriptor (made blocking again).
            _ = fcntl(opened, F_SETFL, fcntl(opened, F_GETFL) & ~O_NONBLOCK)
            descriptor = opened
            size = Int64(info.st_size)
            inflating = nil
            return
        }
        close(opened)
        let archive: Archive
        do { archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read) } catch {
            throw HealthImportError.damagedZip(path: path, reason: "it cannot be opened as a zip (\(error))")
        }
        guard let entry = archive.first(where: { $0.type == .file && ($0.path == "export.xml" || $0.path.hasSuffix("/export.xml")) }) else {
            throw HealthImportError.noExportInZip(path: path)
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw HealthImportError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        descriptor = ends[0]
        size = Int64(entry.uncompressedSize)
        let state = Inflating()
        inflating = state
        let writeEnd = ends[1]
        nonisolated(unsafe) let (archiveToRead, entryToRead) = (archive, entry)
        Thread {
            do {
                let checksum = try archiveToRead.extract(entryToRead, bufferSize: 64 * 1024, skipCRC32: false) { chunk in
                    try Self.writeAll(chunk, to: writeEnd)
                }
                if checksum != entryToRead.checksum { state.failure = "export.xml in it does not match its checksum" }
            } catch let error as PipeClosed {
                _ = error  // the parser stopped reading: its own failure says why
            } catch {
                state.failure = "export.xml in it cannot be inflated (\(error))"
            }
            close(writeEnd)
            state.done.signal()
        }.start()
    }

    /// Reads into `buffer`: the bytes read, 0 at the end, -1 on a failure.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Ends the reading, waiting for the inflating thread; a zip that turned out damaged is an error.
    func finish() throws {
        close(descriptor)
        guard let inflating else { return }
        inflating.done.wait()
        if let failure = inflating.failure { throw HealthImportError.damagedZip(path: "", reason: failure) }
    }

    private struct PipeClosed: Error {}

    private static func writeAll(_ data: Data, to descriptor: Int32) throws {
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw PipeClosed()
                }
                offset += written
            }
        }
    }
}
