import Foundation

/// The next line a child process prints on `output`, read a byte at a time so that nothing after it is
/// taken. The limit only guards against a hang: Python starting on a loaded machine takes its time.
/// `of` names the child in a failure.
public func nextLine(from output: FileHandle, limit: Duration = .seconds(600), of child: String) throws -> String {
    let deadline = ContinuousClock.now + limit
    var line = Data()
    while true {
        var ready = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
        let left = deadline - ContinuousClock.now
        guard left > .zero, poll(&ready, 1, Int32(left.components.seconds * 1000 + 1)) >= 0 else {
            throw FixtureError("\(child) said nothing in \(limit)")
        }
        guard ready.revents != 0 else { continue }
        guard let byte = try output.read(upToCount: 1), !byte.isEmpty else { throw FixtureError("\(child) ended") }
        if byte.first == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
        line.append(byte)
    }
}
