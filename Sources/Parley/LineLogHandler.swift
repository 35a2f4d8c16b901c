import Foundation
import Logging

/// Writes one line per log event to standard error: time, level, label, message, metadata.
///
/// swift-log's `StreamLogHandler` re-renders all metadata whenever a value is set, and the
/// server sets the request id on every request; this handler only stores metadata and renders
/// it when something is actually logged.
struct LineLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let extra = event.metadata { all.merge(extra) { _, new in new } }
        let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let time = Date().formatted(.iso8601)
        let line = "\(time) \(event.level) \(label): \(event.message)\(fields.isEmpty ? "" : " " + fields)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
