import JournalKit
import JournalSync

/// Why an S3 hub refused or could not be used, each with what to do about it. Never holds a secret.
/// A store that is down, busy (503 SlowDown, 429) or slow is no error of these: it is the hub being
/// unreachable (`SyncError.hubUnavailable`), which a later sync gets past.
public enum S3HubError: JournalFailure, ServerRefusal, Equatable {
    case badURL(url: String, problem: String)
    /// A login or key in the URL: it would be kept in the journal and shown in messages.
    case secretInURL
    /// An `http://` endpoint that is not this machine.
    case plainTextElsewhere(endpoint: String)
    /// A region from the environment or a profile that cannot be one.
    case badRegion(String, source: String)
    /// A profile's name from the environment that cannot be one.
    case badProfile(String, source: String)
    /// An endpoint from the environment or a profile (`AWS_ENDPOINT_URL`, `endpoint_url`) that cannot be one.
    case badConfiguredEndpoint(source: String, problem: String)
    /// No credentials in the environment or the AWS files.
    case credentialsMissing(profile: String, looked: [String])
    /// The store does not know the access key, or the signature made with its secret (403).
    case credentialsRefused(accessKey: String, store: String, code: String)
    /// The session token has expired.
    case tokenExpired(accessKey: String)
    /// The key may not do this with the bucket (403 AccessDenied).
    case forbidden(bucket: String, what: String)
    case noSuchBucket(bucket: String, store: String)
    /// AWS answered that the bucket is in another region (301).
    case wrongRegion(bucket: String, region: String?)
    /// The store cannot write conditionally, as `sync init` found.
    case noConditionalWrites(store: String, found: String)

    public var kind: FailureKind {
        switch self {
        case .badURL, .secretInURL, .plainTextElsewhere: .usage
        default: .setup
        }
    }

    public var description: String {
        switch self {
        case .badURL(let url, let problem):
            return "the S3 hub's URL \(url) cannot be used: \(problem). It is s3://BUCKET/PREFIX, with ?endpoint=https://HOST[:PORT] "
                + "for a store that is not AWS (R2, Ceph, MinIO), ?region=, ?profile= and ?sslrootcert=FILE."
        case .secretInURL:
            return "the URL holds a login or a key; it would be kept in the journal and shown in messages. Leave it out: "
                + "journal reads the key from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or ~/.aws/credentials."
        case .plainTextElsewhere(let endpoint):
            return "the endpoint \(endpoint) is http://, without TLS, to a server that is not this machine: who syncs when, and "
                + "the sealed bytes, would cross the network readable. Use https://."
        case .badProfile(let profile, let source):
            return "the profile \"\(TerminalText.escaped(String(profile.prefix(64))))\" (from \(source)) is no profile's name. Correct it, or name one "
                + "with ?profile= in the hub's URL."
        case .badConfiguredEndpoint(let source, let problem):
            return "the endpoint \(source) gives cannot be used: \(problem). Correct it there, or name the store with "
                + "?endpoint=https://HOST[:PORT] in the hub's URL."
        case .badRegion(let region, let source):
            return "the region \"\(region.prefix(64))\" (from \(source)) is no region's name. Correct it, or name one with ?region= in the hub's URL."
        case .credentialsMissing(let profile, let looked):
            return "no credentials for the store were found: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set, and the "
                + "profile \(profile) has no aws_access_key_id and aws_secret_access_key (looked in \(looked.joined(separator: ", "))). "
                + "Add the key to ~/.aws/credentials under [\(profile)] (chmod 600), where journal-syncd finds it too: a shell's "
                + "variables serve only the commands run from it."
        case .credentialsRefused(let accessKey, let store, let code):
            return "the store \(store) refused the access key \(accessKey) (\(code)): the key is unknown there, or its secret is "
                + "not the one it was given. Correct it in the environment or ~/.aws/credentials. Nothing was written."
        case .tokenExpired(let accessKey):
            return "the session token of the access key \(accessKey) has expired. Sign in again (aws sso login, or a new "
                + "AWS_SESSION_TOKEN); the daemon tries again on its own. Nothing was lost."
        case .forbidden(let bucket, let what):
            return "the key may not \(what) in the bucket \(bucket) (403 AccessDenied). Give it s3:ListBucket, s3:GetObject, "
                + "s3:PutObject and s3:DeleteObject on the bucket and prefix."
        case .noSuchBucket(let bucket, let store):
            return "the bucket \(bucket) is not on \(store) (404 NoSuchBucket). Check its name, and ?endpoint= or ?region=; "
                + "journal does not make buckets."
        case .wrongRegion(let bucket, let region):
            return "the bucket \(bucket) is in another region" + (region.map { " (\($0))" } ?? "") + ": name it with ?region="
                + (region ?? "REGION") + " in the hub's URL."
        case .noConditionalWrites(let store, let found):
            return "the store \(store) cannot write conditionally (\(found)), which journal needs so that two devices never "
                + "write over each other. AWS S3, Cloudflare R2 and Ceph RGW can; MinIO and Garage may not. Nothing was made."
        }
    }
}
