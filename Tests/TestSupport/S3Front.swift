import Foundation

/// A test front before the tests' S3 server, answering as stores in the wild do, by the bucket a
/// request names: `careless-…` is passed on without its `If-None-Match` and `If-Match` (a store without
/// conditional writes); `forbidden-…` answers 403 AccessDenied, `badkey-…` 403 InvalidAccessKeyId,
/// `expired-…` 400 ExpiredToken, `slowdown-…` 503 SlowDown with `Retry-After: 7`, `conflict-…` each
/// first PUT of a name 409 ConditionalRequestConflict, `liar-…` a GET with a `Content-Length` of more
/// than it sends, then the connection closed, `endless-…` every listing "truncated" with the same
/// token, `unconditional-…` a conditional PUT 501 NotImplemented; anything else is passed on. It ends with the test process.
public struct S3Front {
    let process: ChildProcess
    public let port: Int

    public var endpoint: String { "http://127.0.0.1:\(port)" }

    public init(folder: String, store: S3Server = .shared) throws {
        let script = folder + "/s3front.py"
        try """
            import http.client, http.server, os, sys, threading, time
            parent = os.getppid()
            def watch():
                while os.getppid() == parent: time.sleep(0.5)
                os._exit(0)
            threading.Thread(target=watch, daemon=True).start()
            STORE = ('127.0.0.1', \(store.port))
            conflicted = set()
            def error(code, message='x'):
                return ('<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>%s</Message></Error>' % (code, message)).encode()
            class Front(http.server.BaseHTTPRequestHandler):
                protocol_version = 'HTTP/1.1'
                def log_message(self, *args): pass
                def answer(self, status, body=b'', headers=()):
                    self.send_response_only(status)
                    for name, value in headers: self.send_header(name, value)
                    self.send_header('Content-Length', str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def passOn(self, body, dropping=()):
                    headers = {k: v for k, v in self.headers.items() if k.lower() not in dropping and k.lower() != 'host'}
                    connection = http.client.HTTPConnection(*STORE)
                    connection.request(self.command, self.path, body=body, headers=headers)
                    answer = connection.getresponse()
                    data = answer.read()
                    self.answer(answer.status, data, [(k, v) for k, v in answer.getheaders() if k.lower() in ('etag', 'content-type', 'x-amz-request-id')])
                def handle(self):
                    while self.handle_one_request_or_stop(): pass
                def handle_one_request_or_stop(self):
                    self.raw_requestline = self.rfile.readline(65537)
                    if not self.raw_requestline or not self.parse_request(): return False
                    body = self.rfile.read(int(self.headers.get('Content-Length') or 0))
                    bucket = self.path.lstrip('/').split('/')[0].split('?')[0]
                    if bucket.startswith('careless-'): self.passOn(body, ('if-none-match', 'if-match'))
                    elif bucket.startswith('forbidden-'): self.answer(403, error('AccessDenied'))
                    elif bucket.startswith('badkey-'): self.answer(403, error('InvalidAccessKeyId'))
                    elif bucket.startswith('expired-'): self.answer(400, error('ExpiredToken'))
                    elif bucket.startswith('slowdown-'): self.answer(503, error('SlowDown'), [('Retry-After', '7')])
                    elif bucket.startswith('conflict-') and self.command == 'PUT' and self.path not in conflicted:
                        conflicted.add(self.path)
                        self.answer(409, error('ConditionalRequestConflict'))
                    elif bucket.startswith('endless-') and self.command == 'GET' and 'list-type' in self.path:
                        self.answer(200, b'<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><IsTruncated>true</IsTruncated>'
                            b'<Contents><Key>journal/journal-hub-v1/heads/x</Key><Size>1</Size><ETag>"1"</ETag></Contents>'
                            b'<NextContinuationToken>again</NextContinuationToken></ListBucketResult>')
                    elif bucket.startswith('unconditional-') and self.command == 'PUT' and ('If-None-Match' in self.headers or 'If-Match' in self.headers):
                        self.answer(501, error('NotImplemented'))
                    elif bucket.startswith('liar-') and self.command == 'GET' and 'list-type' not in self.path:
                        self.send_response_only(200)
                        self.send_header('Content-Length', '100000')
                        self.end_headers()
                        self.wfile.write(b'0123456789')
                        self.wfile.flush()
                        return False
                    else: self.passOn(body)
                    return True
            server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Front)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let output = try ClosedOnExecPipe()
        process = try ChildProcess("/usr/bin/python3", [script], standardOutput: output.writing)
        try output.writing.close()
        guard let port = Int(try nextLine(from: output.reading, of: "the S3 front")) else { throw FixtureError("the S3 front said no port") }
        self.port = port
    }

    /// A bucket on the store behind the front, named for what the front does with it.
    public func newBucket(_ behaviour: String, store: S3Server = .shared) throws -> String {
        try store.make(behaviour + "-" + UUID().uuidString.prefix(12).lowercased())
    }

    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
