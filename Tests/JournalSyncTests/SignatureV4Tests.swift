import Testing
import TestSupport

@testable import S3Hub

/// Requests signed as AWS documents and as botocore (every AWS tool's signer) signs them.
@Suite(.onTestThreads) struct SignatureV4Tests {
    static let example = S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", sessionToken: nil)

    /// The GET of the S3 API reference's "Authenticating Requests (AWS Signature Version 4)" example.
    @Test func theReferencesExampleIsSignedAsItSays() {
        let signer = SignatureV4(credentials: Self.example, region: "us-east-1")
        let request = SignatureV4.Request(
            method: "GET", path: "/test.txt", headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9")])
        let headers = signer.headers(for: request, at: "20130524T000000Z")
        #expect(headers.first { $0.name == "Authorization" }?.value == """
            AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,\
            SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,\
            Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41
            """)
    }

    /// A create-only PUT with a session token, to a store at a port of its own, path-style, with a
    /// space in the prefix: as botocore 1.43 signed it.
    @Test func aConditionalPutWithASessionTokenIsSignedAsBotocoreSignsIt() {
        let credentials = S3Credentials(accessKeyID: Self.example.accessKeyID, secretAccessKey: Self.example.secretAccessKey, sessionToken: "token/with+chars=")
        let signer = SignatureV4(credentials: credentials, region: "eu-west-1")
        let request = SignatureV4.Request(
            method: "PUT", path: "/journal-bucket/hub%20one/devices/1-4.seg", query: [("x-id", "PutObject")],
            headers: [("If-None-Match", "*"), ("Content-Type", "application/octet-stream"), ("Host", "s3.example.org:9000")],
            payloadHash: "6bf2b5c4216420f715bd45a2d4a6edb5d28ec49d8fe898281fb6183ef7659a94")
        let headers = signer.headers(for: request, at: "20261129T041537Z")
        #expect(headers.first { $0.name == "x-amz-security-token" }?.value == "token/with+chars=")
        #expect(headers.first { $0.name == "Authorization" }?.value.hasSuffix(
            "SignedHeaders=content-type;host;if-none-match;x-amz-content-sha256;x-amz-date;x-amz-security-token,"
                + "Signature=45c913d2e074612e4331ee43364cc90eec30f1b4816d4a33e002cdf6a590f06b") == true)
    }

    /// A listing's query, names and values %-encoded ("/" and "+" too, as the specification says and
    /// S3 checks; botocore signs a URL's query as it is given, so it was given encoded) and sorted;
    /// R2's region "auto".
    @Test func aListingsQueryIsSignedAsBotocoreSignsIt() {
        let signer = SignatureV4(credentials: Self.example, region: "auto")
        let request = SignatureV4.Request(
            method: "GET", path: "/journal-bucket", query: [("prefix", "hub one/cards/"), ("start-after", "a+b"), ("list-type", "2")],
            headers: [("Host", "s3.example.org:9000")])
        let headers = signer.headers(for: request, at: "20261129T041537Z")
        #expect(headers.first { $0.name == "Authorization" }?.value == """
            AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20261129/auto/s3/aws4_request,\
            SignedHeaders=host;x-amz-content-sha256;x-amz-date,\
            Signature=9a7bc5910799eedd26782a94de12b723d2128201e996959b192e5cc79f069d42
            """)
        #expect(SignatureV4.canonicalRequest(request).text.split(separator: "\n")[2] == "list-type=2&prefix=hub%20one%2Fcards%2F&start-after=a%2Bb")
    }

    @Test func theSecretIsNeverInADescription() {
        let credentials = S3Credentials(accessKeyID: "AKID", secretAccessKey: "very secret", sessionToken: "token")
        #expect(!"\(credentials)".contains("secret") && !"\(credentials)".contains("token"))
        #expect(!String(reflecting: credentials).contains("very secret"))
    }
}
