import JournalSync

extension HubKind {
    /// A prefix of a bucket on S3 or a store that answers as S3 does.
    public static let s3 = HubKind(rawValue: "s3")
}

/// S3 hubs, named by `s3://BUCKET/PREFIX` (with `?endpoint=` for a store that is not AWS).
public struct S3Driver: HubDriver {
    public init() {}

    public var kind: HubKind { .s3 }
    public var schemes: [String] { ["s3"] }
    public var nameForm: String { "s3://BUCKET/PREFIX" }

    /// The URL names the same prefix from every machine; each has its key in its own environment or files.
    public func nameOnAnotherMachine(location: String) -> String? { location }

    public func place(named name: String, isURL: Bool, access: HubAccess) throws -> any HubPlace {
        // A recorded location is never settled again (`isURL` is false for it: S3 has no option of an
        // earlier release).
        try S3Place(url: name, patience: access.patience, settling: isURL)
    }

    /// The access key a revoked machine had still opens the bucket: delete it, which the new key cannot do.
    public func stepsAfterRevoking(deviceName: String) -> String? {
        "The store still lets \(deviceName) in with the access key it has: delete that key (AWS IAM, an R2 API token), "
            + "and give each machine that stays a key of its own."
    }
}
