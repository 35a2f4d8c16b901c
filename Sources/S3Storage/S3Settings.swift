/// Where an S3-compatible object store is and how to sign for it (`PARLEY_S3_*`).
public struct S3Settings: Sendable, Equatable {
    /// `scheme://host[:port]` of the service (MinIO, Ceph, R2 …); empty: AWS's endpoint of
    /// `region`.
    public var endpoint = ""
    public var region = "us-east-1"
    public var bucket = ""
    public var accessKeyID = ""
    public var secretAccessKey = ""
    /// The bucket in the path (`endpoint/bucket/key`), as MinIO and most self-hosted stores want,
    /// rather than in the host name (`bucket.host/key`).
    public var pathStyle = true
    /// Put before every key (`parley/`), to share a bucket.
    public var prefix = ""
    /// Files larger than this go up as a multipart upload in parts of this size (S3's smallest
    /// part is 5 MiB); memory per upload stays one part, whatever the file's size.
    public var partSize = 8 << 20
    /// Bytes read per ranged GET: a download reads its chunks a window at a time.
    public var readWindow = 1 << 20

    public init() {}

    /// The service's base URL.
    public var resolvedEndpoint: String {
        guard !endpoint.isEmpty else { return "https://s3.\(region).amazonaws.com" }
        var trimmed = endpoint
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    /// What is wrong with these settings, for the configuration's error; nil when usable.
    public var problem: String? {
        if bucket.isEmpty { return "PARLEY_S3_BUCKET is not set." }
        if accessKeyID.isEmpty || secretAccessKey.isEmpty { return "PARLEY_S3_ACCESS_KEY_ID and PARLEY_S3_SECRET_ACCESS_KEY are required." }
        if !endpoint.isEmpty, !(endpoint.hasPrefix("http://") || endpoint.hasPrefix("https://")) {
            return "PARLEY_S3_ENDPOINT must start with http:// or https://."
        }
        if !pathStyle, bucket.contains(".") { return "A bucket name with dots needs PARLEY_S3_PATH_STYLE=true." }
        return nil
    }
}
