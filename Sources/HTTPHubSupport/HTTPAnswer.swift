import JournalKit
import NIOHTTP1

/// A server's answer: its status, headers, and body up to the request's limit.
public struct HTTPAnswer: Sendable {
    public let status: Int
    public let headers: HTTPHeaders
    public let body: [UInt8]

    public init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var succeeded: Bool { (200..<300).contains(status) }

    /// How long a server that limits its clients (429, 503) asked to be left alone, if it said.
    public var retryAfter: Duration? {
        guard status == 429 || status == 503 else { return nil }
        return RetryAfter.wait(headers.first(name: "Retry-After"), serverDate: headers.first(name: "Date"), now: SystemClock().now().milliseconds / 1000)
    }
}
