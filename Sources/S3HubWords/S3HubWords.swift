import CommandLineSupport

/// An S3 hub on the command line.
public enum S3HubWords: HubKindWords {
    public static let place = "an S3 bucket"
    public static let naming = """
        a bucket on S3 or a store that answers as it does (Cloudflare R2, Ceph, MinIO) by s3://BUCKET/PREFIX \
        (?endpoint=https://HOST[:PORT] for a store that is not AWS, ?region=, ?profile=), its key from \
        AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or ~/.aws/credentials
        """
}
