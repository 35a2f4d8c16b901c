import Logging
import Synchronization

/// Keeps the log records of one test server, so a test can say what was (not) logged.
final class LogRecords: Sendable {
    private let records = Mutex<[(level: Logger.Level, message: String)]>([])

    var all: [(level: Logger.Level, message: String)] { records.withLock { $0 } }

    func append(_ level: Logger.Level, _ message: String) {
        records.withLock { $0.append((level, message)) }
    }

    /// A logger whose records land here (and nowhere else).
    func logger(level: Logger.Level = .debug) -> Logger {
        Logger(label: "parley-test-recorded") { _ in RecordingLogHandler(records: self, logLevel: level) }
    }
}

struct RecordingLogHandler: LogHandler {
    let records: LogRecords
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(
        level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt
    ) {
        records.append(level, "\(message)")
    }
}
