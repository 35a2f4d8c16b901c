import Crypto
import CurlHTTP
import Foundation

/// The S3 operations Parley's file store needs, over the process's libcurl client: objects put
/// whole or in multipart parts, read by byte range, deleted and listed. The endpoint is the
/// operator's own configuration, so these requests do not go through the outbound guard (as the
/// translation provider's do not); every one is signed (`SignatureV4`) and bounded in time and size.
public final class S3Client: Sendable {
    let http: CurlClient
    public let settings: S3Settings
    let signer: SignatureV4
    let base: (scheme: String, host: String, pathPrefix: String)

    public init(http: CurlClient, settings: S3Settings) throws {
        if let problem = settings.problem { throw S3Error.malformed(problem) }
        guard let url = URLComponents(string: settings.resolvedEndpoint), let scheme = url.scheme, let host = url.host else {
            throw S3Error.malformed("endpoint \(settings.resolvedEndpoint)")
        }
        let authority = (settings.pathStyle ? host : "\(settings.bucket).\(host)") + (url.port.map { ":\($0)" } ?? "")
        let bucketPath = settings.pathStyle ? "/" + SignatureV4.encode(settings.bucket) : ""
        self.http = http
        self.settings = settings
        self.signer = SignatureV4(accessKeyID: settings.accessKeyID, secretAccessKey: settings.secretAccessKey, region: settings.region)
        // A store served under a path of its own (`https://host/s3`) keeps it before the bucket.
        let endpointPath = url.path.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        self.base = (scheme, authority, (endpointPath.isEmpty ? "" : "/" + endpointPath) + bucketPath)
    }

    /// Where the bucket's objects are addressed: `scheme://host[:port][/path]`, the bucket in the
    /// host (virtual-hosted) or in the path (path style).
    public var bucketURL: String { "\(base.scheme)://\(base.host)\(base.pathPrefix)" }

    /// Sends one signed request; an error status becomes `S3Error` (404 `notFound`).
    func send(
        _ method: OutboundRequest.Method, key: String?, query: [(String, String)] = [], headers: [(String, String)] = [],
        body: [UInt8]? = nil, maxResponseBytes: Int = 1 << 20, timeout: Duration = .seconds(60)
    ) async throws -> OutboundResponse {
        let path = base.pathPrefix + (key.map { "/" + SignatureV4.encode(settings.prefix + $0, keepSlash: true) } ?? "/")
        let payloadHash = body.map { SignatureV4.hex(SHA256.hash(data: $0)) } ?? SignatureV4.emptyPayloadHash
        var headerList = headers
        if body != nil { headerList.append(("Content-Type", "application/octet-stream")) }
        let signed = signer.sign(
            method: method.rawValue, path: path, query: query, headers: [("host", base.host)] + headerList, payloadHash: payloadHash,
            date: Date())
        let canonicalQuery = SignatureV4.canonicalQuery(query)
        let url = "\(base.scheme)://\(base.host)\(path)" + (canonicalQuery.isEmpty ? "" : "?" + canonicalQuery)
        let request = OutboundRequest(
            method, url, headers: (headerList + signed).map { (name: $0.0, value: $0.1) }, body: body, connectTimeout: .seconds(5),
            timeout: timeout, maxResponseBytes: maxResponseBytes)
        let response = try await http.send(request)
        guard (200..<300).contains(response.status) else {
            if response.status == 404 { throw S3Error.notFound(key ?? settings.bucket) }
            throw Self.refusal(response)
        }
        return response
    }

    static func refusal(_ response: OutboundResponse) -> S3Error {
        let text = response.text
        return .refused(
            status: response.status, code: S3XML.value("Code", in: text) ?? "",
            message: S3XML.value("Message", in: text) ?? text.prefix(200).description)
    }

    /// Makes the bucket unless it exists (a development store; in production it is made by the
    /// operator, and this only checks it is reachable with these keys).
    public func ensureBucket() async throws {
        do {
            _ = try await send(.head, key: nil)
        } catch S3Error.notFound {
            let location =
                settings.region == "us-east-1"
                ? [UInt8]()
                : Array(
                    "<CreateBucketConfiguration><LocationConstraint>\(S3XML.escape(settings.region))</LocationConstraint></CreateBucketConfiguration>"
                        .utf8)
            _ = try await send(.put, key: nil, body: location)
        }
    }

    /// Stores `body` as `key` in one request.
    public func put(_ key: String, _ body: [UInt8]) async throws {
        _ = try await send(.put, key: key, body: body)
    }

    /// Stores `size` bytes as `key`, read part by part through `read(offset, &part)`, which fills
    /// `part` (its count is the part's size) from `offset`: in one request up to `partSize`,
    /// else as a multipart upload (aborted when a part fails). One buffer holds every part in
    /// turn (issue 50.11: a new one per part, with libcurl's copy of each, grew the server by
    /// about one part and a half per upload, which glibc kept).
    public func upload(_ key: String, size: Int64, read: (Int64, inout [UInt8]) async throws -> Void) async throws {
        let partSize = Int64(settings.partSize)
        var part: [UInt8] = []
        func readPart(at offset: Int64) async throws {
            let count = Int(min(partSize, size - offset))
            // The last part is the shortest: it keeps the buffer, shortened.
            if part.count > count {
                part.removeLast(part.count - count)
            } else if part.count < count {
                part = [UInt8](repeating: 0, count: count)
            }
            try await read(offset, &part)
        }
        guard size > partSize else {
            try await readPart(at: 0)
            return try await put(key, part)
        }
        let started = try await send(.post, key: key, query: [("uploads", "")], body: [])
        guard let uploadID = S3XML.value("UploadId", in: started.text) else { throw S3Error.malformed("no UploadId") }
        do {
            var etags: [String] = []
            var offset: Int64 = 0
            while offset < size {
                try await readPart(at: offset)
                let sent = try await send(
                    .put, key: key, query: [("partNumber", String(etags.count + 1)), ("uploadId", uploadID)], body: part)
                guard let etag = sent.header("ETag") else { throw S3Error.malformed("a part without ETag") }
                etags.append(etag)
                offset += Int64(part.count)
            }
            let parts = etags.enumerated().map {
                "<Part><PartNumber>\($0.offset + 1)</PartNumber><ETag>\(S3XML.escape($0.element))</ETag></Part>"
            }
            let completed = try await send(
                .post, key: key, query: [("uploadId", uploadID)],
                body: Array("<CompleteMultipartUpload>\(parts.joined())</CompleteMultipartUpload>".utf8))
            // S3 may answer 200 and still fail the completion, with an <Error> body.
            if completed.text.contains("<Error>") { throw Self.refusal(completed) }
        } catch {
            _ = try? await send(.delete, key: key, query: [("uploadId", uploadID)])
            throw error
        }
    }

    /// The bytes `range` of `key` (fewer at its end), and the object's whole size.
    public func get(_ key: String, range: Range<Int64>) async throws -> (bytes: [UInt8], totalSize: Int64) {
        let response = try await send(
            .get, key: key, headers: [("Range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")],
            maxResponseBytes: Int(range.count) + 1024)
        // `bytes 0-99/1234`; a 200 (the store ignored the range) is the whole object.
        let total =
            response.header("Content-Range").flatMap { $0.split(separator: "/").last.flatMap { Int64($0) } }
            ?? Int64(response.body.count)
        if response.status == 200, range != 0..<Int64(response.body.count) {
            let upper = min(Int(range.upperBound), response.body.count)
            return (Array(response.body[min(Int(range.lowerBound), upper)..<upper]), total)
        }
        return (response.body, total)
    }

    /// The size of `key`, nil when there is none.
    public func size(of key: String) async throws -> Int64? {
        do {
            // The announced length is the object's, not an answer's: no limit applies to it.
            return try await send(.head, key: key, maxResponseBytes: 1 << 50).header("Content-Length").flatMap { Int64($0) }
        } catch S3Error.notFound {
            return nil
        }
    }

    /// Removes `key`; an absent one is fine.
    public func delete(_ key: String) async throws {
        do { _ = try await send(.delete, key: key) } catch S3Error.notFound {}
    }

    /// One object of a listing: its key (without `prefix`) and when it was last written.
    public struct Object: Sendable, Equatable {
        public let key: String
        public let lastModified: Date
        public let size: Int64
    }

    /// The objects under `prefix` (within the configured prefix), a page at a time: the first, the
    /// one a `continuation` token names, or the one after the key `startAfter` (a position that
    /// can be kept: tokens are opaque and may not outlive the listing).
    public func list(
        prefix: String = "", after continuation: String? = nil, startAfter: String? = nil
    ) async throws -> (objects: [Object], next: String?) {
        var query = [("list-type", "2"), ("prefix", settings.prefix + prefix), ("max-keys", "1000")]
        if let continuation { query.append(("continuation-token", continuation)) }
        if let startAfter { query.append(("start-after", settings.prefix + startAfter)) }
        let text = try await send(.get, key: nil, query: query, maxResponseBytes: 8 << 20).text
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        let objects = S3XML.blocks("Contents", in: text).compactMap { block -> Object? in
            guard let key = S3XML.value("Key", in: block), key.hasPrefix(settings.prefix),
                let modified = S3XML.value("LastModified", in: block).flatMap({ parser.date(from: $0) ?? plain.date(from: $0) })
            else { return nil }
            return Object(
                key: String(key.dropFirst(settings.prefix.count)), lastModified: modified,
                size: Int64(S3XML.value("Size", in: block) ?? "") ?? 0)
        }
        let truncated = S3XML.value("IsTruncated", in: text) == "true"
        return (objects, truncated ? S3XML.value("NextContinuationToken", in: text) : nil)
    }
}
