import Crypto
import JournalKit

/// AWS Signature Version 4, as S3 and every S3-compatible store (R2, Ceph, MinIO) check it: a
/// canonical form of the request, hashed, signed with a key derived from the secret for one day, one
/// region and one service. A value: the same request, credentials and time give the same headers, so
/// it is tested against AWS's published examples apart from any network.
struct SignatureV4: Sendable {
    let credentials: S3Credentials
    /// "us-east-1"; "auto" for R2.
    let region: String
    let service = "s3"

    /// The SHA-256 of no bytes, the payload hash of a request without a body.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// A request as it is signed: its path already %-encoded as it goes on the wire (S3 encodes
    /// each segment once, keeping "/"), its query's names and values not yet encoded.
    struct Request {
        var method: String
        var path: String
        var query: [(name: String, value: String)] = []
        /// Every header sent that is signed, `Host` among them; names in any case.
        var headers: [(name: String, value: String)]
        /// The hex SHA-256 of the body.
        var payloadHash: String = SignatureV4.emptyPayloadHash
    }

    /// The headers to add to `request` sent at `time` ("20130524T000000Z"): `x-amz-date`,
    /// `x-amz-content-sha256`, the session token when there is one, and `Authorization`.
    func headers(for request: Request, at time: String) -> [(name: String, value: String)] {
        var added = [("x-amz-content-sha256", request.payloadHash), ("x-amz-date", time)]
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        var signed = request
        signed.headers += added
        let (canonical, signedHeaders) = Self.canonicalRequest(signed)
        let day = String(time.prefix(8))
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let stringToSign = "AWS4-HMAC-SHA256\n\(time)\n\(scope)\n" + Hex.encode(SHA256.hash(data: Array(canonical.utf8)))
        let signature = Hex.encode(HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: signingKey(day: day)))
        added.append(("Authorization", "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope),SignedHeaders=\(signedHeaders),Signature=\(signature)"))
        return added
    }

    /// The key for one day, region and service, derived from the secret.
    private func signingKey(day: String) -> SymmetricKey {
        var key = SymmetricKey(data: Array(("AWS4" + credentials.secretAccessKey).utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Array(HMAC<SHA256>.authenticationCode(for: Array(part.utf8), using: key)))
        }
        return key
    }

    /// The canonical request and the list of signed headers' names: headers lower-cased, their values'
    /// runs of spaces made one and trimmed, sorted by name, repeated names joined with ","; the query
    /// %-encoded and sorted by name, then value.
    static func canonicalRequest(_ request: Request) -> (text: String, signedHeaders: String) {
        var byName: [String: [String]] = [:]
        for (name, value) in request.headers {
            byName[name.lowercased(), default: []].append(value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " "))
        }
        let names = byName.keys.sorted()
        let headers = names.map { "\($0):\(byName[$0]!.joined(separator: ","))\n" }.joined()
        let encoded: [(name: String, value: String)] = request.query.map { (PercentEncoding.encoded($0.name), PercentEncoding.encoded($0.value)) }
        let sorted = encoded.sorted { (one, two) -> Bool in one.name == two.name ? one.value < two.value : one.name < two.name }
        let query = sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
        let signedHeaders = names.joined(separator: ";")
        let text = [request.method, request.path, query, headers, signedHeaders, request.payloadHash].joined(separator: "\n")
        return (text, signedHeaders)
    }
}

/// What signs requests to a store: an access key's id and secret, and a session's token when the
/// key is a temporary one. Its description never holds the secret or the token.
struct S3Credentials: Sendable, CustomStringConvertible {
    let accessKeyID: String
    let secretAccessKey: String
    let sessionToken: String?

    var description: String { "access key \(accessKeyID)" }
}
