import ArgumentParser
import CurlHTTP
import ParleyContainer
import ParleyFiles
import S3Storage

/// `parley migrate-files --to s3|local`: moves the stored files between the local folder
/// (`PARLEY_FILE_DIR`) and the bucket of `PARLEY_S3_*`, resumably (run it again after a stop).
struct MigrateFilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-files",
        abstract: "Move stored files between the local folder and the S3 bucket (resumable).",
        discussion: """
            To move to S3 without downtime: with the servers still on the folder, run `--to s3 --keep-source` \
            (copies); set PARLEY_FILE_STORE=s3 and restart the servers; run `--to s3` (copies what arrived \
            meanwhile and removes the folder's files). Back: the same with `--to local`.
            """)

    enum Destination: String, ExpressibleByArgument {
        case s3, local
    }

    @Option(name: .long, help: "Where the files go: s3 or local.")
    var to: Destination

    @Flag(name: .long, help: "Copy without removing the files from where they were.")
    var keepSource = false

    func run() async throws {
        let config = try loadConfig()
        guard let settings = config.s3 else {
            throw StartupRefusal("migrate-files needs the bucket: set PARLEY_S3_BUCKET, PARLEY_S3_ENDPOINT and the keys.")
        }
        let http = CurlClient(userAgent: "Parley")
        defer { http.shutdown() }
        let migration = try FileMigration(folder: config.resolvedFileDirectory, objects: try S3Client(http: http, settings: settings))
        let report: @Sendable (Int) -> Void = { count in if count % 1000 == 0 { print("\(count) files moved so far") } }
        let moved =
            switch to {
            case .s3: try await migration.toObjectStore(keepSource: keepSource, progress: report)
            case .local: try await migration.toFolder(keepSource: keepSource, progress: report)
            }
        print(
            "\(moved) files \(keepSource ? "copied" : "moved") to \(to == .s3 ? "s3://\(settings.bucket)" : config.resolvedFileDirectory)")
    }
}
