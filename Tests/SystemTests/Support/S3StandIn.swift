import CurlHTTP
import Foundation
import ParleyContainer
import S3Storage
import Testing

/// An S3 service on loopback (`Files/s3_standin.py`: moto's server, checking every request's
/// signature against the keys it issued), one for the whole run; each test keeps its files in a
/// bucket of its own.
final class S3StandIn: Sendable {
    static let shared = Result(catching: { try S3StandIn() })

    struct Handshake: Decodable {
        let port: Int
        let access_key_id: String
        let secret_access_key: String
    }

    let handshake: Handshake
    private let process: StandInProcess
    let http = CurlClient()

    init() throws {
        process = try StandInProcess(script: "Files/s3_standin.py", quietErrors: true, missing: "is moto[server] installed?")
        handshake = try process.handshake(Handshake.self)
    }

    deinit {
        http.shutdown()
    }

    /// Settings for a new bucket of this store (made on first use by the server or `client`).
    func settings(bucket: String = "t-" + UUID().uuidString.lowercased().prefix(20)) -> S3Settings {
        var settings = S3Settings()
        settings.endpoint = "http://127.0.0.1:\(handshake.port)"
        settings.bucket = String(bucket)
        settings.accessKeyID = handshake.access_key_id
        settings.secretAccessKey = handshake.secret_access_key
        // S3's smallest part, so that a test file of a few MiB goes up in several.
        settings.partSize = 5 << 20
        return settings
    }

    /// A client of that bucket, for looking at what the server stored.
    func client(_ settings: S3Settings) throws -> S3Client {
        try S3Client(http: http, settings: settings)
    }
}

/// Where a test's server keeps its files: the local folder or the S3 stand-in.
enum FileStoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case local, s3

    var testDescription: String { rawValue }

    /// Points `config` at a fresh store of this kind; for S3, returns its bucket's settings.
    func configure(_ config: inout Config) throws -> S3Settings? {
        config.fileDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-files/\(UUID().uuidString)").path
        guard self == .s3 else { return nil }
        let settings = try S3StandIn.shared.get().settings()
        config.objectStore = settings
        return settings
    }
}
