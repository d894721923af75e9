import Foundation

/// An `InputStream` whose bytes come from a closure, so that `XMLParser(stream:)` reads an export as
/// it is decompressed and filtered, a chunk at a time: memory stays the same whatever the export's size.
final class PullInputStream: InputStream {
    /// Fills the buffer; returns the bytes written, 0 at the end, or -1 on a failure.
    private let pull: (UnsafeMutablePointer<UInt8>, Int) -> Int
    private var status: Stream.Status = .notOpen

    init(pull: @escaping (UnsafeMutablePointer<UInt8>, Int) -> Int) {
        self.pull = pull
        super.init(data: Data())
    }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var hasBytesAvailable: Bool { status == .open }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        let count = pull(buffer, length)
        if count == 0 { status = .atEnd }
        if count < 0 { status = .error }
        return count
    }
}
