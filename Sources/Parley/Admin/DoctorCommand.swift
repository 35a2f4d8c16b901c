import ArgumentParser
import Foundation
import Logging
import ParleyContainer
import ParleyCore
import ParleyFiles
import Postgres

/// `parley doctor`: checks what a deployment needs, with the same configuration and services as
/// `parley serve`, and says what to fix. Exits 1 when something must be fixed.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check configuration, database, migrations, files and their key, libvips, ffmpeg and the translation provider.")

    func run() async throws {
        var findings = Findings()
        defer { LogWriter.standardError.flush() }
        guard var config = findings.configuration() else { return try findings.finish() }
        config.logLevel = .critical
        let logger = makeLogger(config)
        let databaseReady = await findings.database(config, logger: logger)
        let fileDirectory = config.resolvedFileDirectory
        let filesReady = findings.fileDirectory(fileDirectory)
        if databaseReady && filesReady, let container = findings.record("services", { try Container.live(config: config, logger: logger) })
        {
            await findings.fileKey(container.files)
            findings.thumbnails(config.files)
            await findings.translation(container, provider: config.translation.provider.rawValue)
            await findings.webhooks(container)
            await container.shutdown()
        } else {
            findings.skip("file key, libvips, translation, webhooks", because: "the database or the file directory is not ready")
        }
        findings.ffmpeg(config.files.ffmpegPath)
        try findings.finish()
    }
}

/// The checks' outcomes, printed as they come.
struct Findings {
    enum Verdict: String {
        case ok = "ok  "
        case warning = "warn"
        case failure = "FAIL"
    }

    private(set) var failures = 0

    mutating func report(_ verdict: Verdict, _ subject: String, _ detail: String) {
        if verdict == .failure { failures += 1 }
        print("[\(verdict.rawValue)] \(subject): \(detail)")
    }

    mutating func skip(_ subjects: String, because reason: String) {
        print("[skip] \(subjects): \(reason)")
    }

    func finish() throws {
        print(failures == 0 ? "Nothing to fix." : "\(failures) thing(s) to fix.")
        if failures > 0 { throw ExitCode(1) }
    }

    /// Runs `body`; a thrown error is a failure of `subject`.
    mutating func record<T>(_ subject: String, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            report(.failure, subject, "\(error)")
            return nil
        }
    }

    mutating func configuration() -> Config? {
        let config: Config
        do {
            config = try Config.fromEnvironment()
        } catch {
            report(.failure, "configuration", "\(error)")
            return nil
        }
        report(.ok, "configuration", "read from the environment")
        if config.publicURL == nil {
            report(
                .warning, "configuration",
                "PARLEY_PUBLIC_URL is not set: file URLs in messages point at \(config.resolvedPublicURL); set it to the address clients use"
            )
        }
        if config.apiToken.count < 32 {
            report(
                .warning, "configuration", "PARLEY_API_TOKEN has \(config.apiToken.count) characters; use 32 or more (openssl rand -hex 24)"
            )
        }
        return config
    }

    mutating func database(_ config: Config, logger: Logger) async -> Bool {
        let status: MigrationStatus
        do {
            status = try await withMigrationConnection(config, logger: logger) { connection, migrator in
                try migrator.status(on: connection)
            }
        } catch {
            report(.failure, "database", "cannot reach PostgreSQL (\(error)); check DATABASE_URL and that the server runs")
            return false
        }
        report(.ok, "database", "reachable")
        if let problem = status.problem {
            report(.failure, "migrations", problem)
            return false
        }
        report(.ok, "migrations", "all applied")
        return true
    }

    mutating func fileDirectory(_ path: String) -> Bool {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            // The server would create it at start; so does the doctor, to see that it can.
            do {
                try manager.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                report(.ok, "file directory", "\(path) created")
                return true
            } catch {
                report(.failure, "file directory", "\(path) does not exist and cannot be created; create it for the server's user")
                return false
            }
        }
        guard isDirectory.boolValue else {
            report(.failure, "file directory", "\(path) is not a directory; set PARLEY_FILE_DIR")
            return false
        }
        let probe = "\(path)/.parley-doctor-\(UUID().uuidString)"
        guard manager.createFile(atPath: probe, contents: Data("probe".utf8)) else {
            report(.failure, "file directory", "cannot write in \(path); give the server's user write access (chown)")
            return false
        }
        try? manager.removeItem(atPath: probe)
        let mode = ((try? manager.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? 0
        if mode & 0o007 != 0 {
            report(.warning, "file directory", "\(path) is open to other users (mode \(String(mode, radix: 8))); chmod o-rwx it")
        } else {
            report(.ok, "file directory", "\(path) is writable")
        }
        return true
    }

    mutating func fileKey(_ files: FileService) async {
        let check = await files.checkMasterKey()
        if let failure = check.failures.first {
            report(
                .failure, "file key",
                "PARLEY_FILE_KEY does not open stored file \(failure.fileID) (\(failure.reason)); \(check.failures.count) of the "
                    + "\(check.checked) tried fail. \(check.isWrongKey ? Self.wrongKeyAdvice : "Those files are damaged; restore them from a backup.")"
            )
        } else if check.checked == 0 {
            report(.ok, "file key", "no stored files to check it against yet")
        } else {
            report(.ok, "file key", "opens the \(check.checked) stored file(s) tried")
        }
    }

    static let wrongKeyAdvice =
        "It is not the key the files were stored with: start with the original key (a restored deployment needs the key of its backup)."

    mutating func thumbnails(_ settings: FileSettings) {
        do {
            let made = try Thumbnailer(maxPixels: settings.maxImagePixels, timeLimitSeconds: settings.thumbnailTimeLimitSeconds)
                .thumbnails(of: Self.samplePNG, boxes: [ThumbnailBox(width: 4, height: 4)])
            report(.ok, "libvips", "made a \(made.first.map { "\($0.width)×\($0.height) \($0.mimeType)" } ?? "?") thumbnail")
        } catch {
            report(.failure, "libvips", "cannot make a thumbnail (\(error)); install libvips (apt-get install libvips42)")
        }
    }

    /// An 8×8 red PNG.
    static let samplePNG = [UInt8](
        Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEklEQVR4nGP4z8CAFWEXHbQSACj/P8Fu7N9hAAAAAElFTkSuQmCC")!)

    mutating func ffmpeg(_ path: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path.contains("/") ? path : "/usr/bin/env")
        process.arguments = (path.contains("/") ? [] : [path]) + ["-hide_banner", "-version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
            report(.ok, "ffmpeg", text.split(separator: "\n").first.map(String.init) ?? path)
        } catch {
            report(
                .warning, "ffmpeg",
                "\(path) does not run: videos are stored without thumbnails; install ffmpeg or set PARLEY_FFMPEG to its path")
        }
    }

    mutating func translation(_ container: Container, provider: String) async {
        guard let translator = container.translator.translator else {
            report(.ok, "translation", "off (PARLEY_TRANSLATION_PROVIDER=none)")
            return
        }
        do {
            let answer = try await translator.translate(["Hello"], to: "de", deadline: .now + .seconds(15))
            report(.ok, "translation", "\(provider) answered (\"Hello\" → \"\(answer.first ?? "")\")")
        } catch {
            report(
                .failure, "translation", "\(provider) did not translate (\(error)); check PARLEY_TRANSLATION_URL, PARLEY_TRANSLATION_KEY")
        }
    }

    mutating func webhooks(_ container: Container) async {
        do {
            let settings = try await container.webhooks.settings(.admin)
            guard settings.enabled, !settings.url.isEmpty else {
                report(.ok, "webhooks", "off")
                return
            }
            let failed = try await container.webhooks.deliveries(.admin, status: .failed, limit: 1, pageToken: nil)
            if failed.items.isEmpty {
                report(.ok, "webhooks", "on; no failed deliveries")
            } else {
                report(
                    .warning, "webhooks",
                    "deliveries to \(settings.url) have failed; see `parley webhook list --status failed`, then `parley webhook redeliver`")
            }
        } catch {
            report(.failure, "webhooks", "\(error)")
        }
    }
}
