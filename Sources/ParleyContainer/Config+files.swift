import S3Storage

/// Where stored files live (`PARLEY_FILE_STORE`): the local folder, or an S3-compatible bucket.
extension Config {
    static func readFileStore(into config: inout Config, _ reader: EnvironmentReader) throws {
        let environment = reader.environment
        // Read whenever a bucket is named, so that `parley migrate-files` can move files to the
        // bucket while the servers still serve them from the folder.
        if !(environment["PARLEY_S3_BUCKET"] ?? "").isEmpty {
            var s3 = S3Settings()
            s3.endpoint = environment["PARLEY_S3_ENDPOINT"] ?? ""
            s3.region = environment["PARLEY_S3_REGION"].flatMap { $0.isEmpty ? nil : $0 } ?? s3.region
            s3.bucket = environment["PARLEY_S3_BUCKET"] ?? ""
            s3.accessKeyID = environment["PARLEY_S3_ACCESS_KEY_ID"] ?? ""
            s3.secretAccessKey = environment["PARLEY_S3_SECRET_ACCESS_KEY"] ?? ""
            s3.pathStyle = try reader.bool("PARLEY_S3_PATH_STYLE", default: true)
            s3.prefix = environment["PARLEY_S3_PREFIX"] ?? ""
            s3.partSize = try reader.int("PARLEY_S3_PART_SIZE_MB", default: s3.partSize >> 20, range: 5...512) << 20
            if let problem = s3.problem { throw ConfigError(problem) }
            config.s3 = s3
        }
        switch (environment["PARLEY_FILE_STORE"] ?? "").lowercased() {
        case "", "local":
            config.filesInObjectStore = false
        case "s3":
            guard config.s3 != nil else { throw ConfigError("PARLEY_FILE_STORE=s3 needs PARLEY_S3_BUCKET (and its keys).") }
            config.filesInObjectStore = true
        case let other:
            throw ConfigError("PARLEY_FILE_STORE must be local or s3, not \"\(other)\".")
        }
    }

    /// The bucket files are kept in, when `PARLEY_FILE_STORE=s3`.
    public var objectStore: S3Settings? {
        get { filesInObjectStore ? s3 : nil }
        set {
            s3 = newValue
            filesInObjectStore = newValue != nil
        }
    }

    /// The folder of stored files (and of uploads in progress with the object store).
    public var resolvedFileDirectory: String { fileDirectory ?? dataDirectory + "/files" }
}
