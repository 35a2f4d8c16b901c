import Foundation
import Logging
import ParleyContainer
import ParleyCore

/// Renders each log event as one line, text or JSON (`PARLEY_LOG_FORMAT`), and hands it to the
/// `LogWriter`.
///
/// swift-log's `StreamLogHandler` re-renders all metadata whenever a value is set, and the
/// server sets the request id on every request; this handler only stores metadata and renders
/// it when something is actually logged.
struct LogLineHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, level: Logger.Level, format: LogFormat) {
        self.label = label
        self.logLevel = level
        self.format = format
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let provided = metadataProvider?.get() { all.merge(provided) { _, new in new } }
        if let extra = event.metadata { all.merge(extra) { _, new in new } }
        let fields = all.map { (Self.outputName($0.key), "\($0.value)") }.sorted { $0.0 < $1.0 }
        let time = Date().formatted(.iso8601)
        switch format {
        case .text:
            let rendered = fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
            LogWriter.standardError.enqueue(
                Array("\(time) \(event.level) \(label): \(event.message)\(rendered.isEmpty ? "" : " " + rendered)\n".utf8))
        case .json:
            var json = JSONWriter(capacity: 256)
            json.object { json in
                json.field("time", time)
                json.field("level", event.level.rawValue)
                json.field("label", label)
                json.field("message", "\(event.message)")
                for (name, value) in fields where !Self.reserved.contains(name) { json.member(name, value) }
            }
            LogWriter.standardError.enqueue(json.bytes + [UInt8(ascii: "\n")])
        }
    }

    private static let reserved: Set<String> = ["time", "level", "label", "message"]

    /// Hummingbird names the request id `hb.request.id`; operators search for `request_id`.
    private static func outputName(_ key: String) -> String {
        key == "hb.request.id" ? "request_id" : key
    }
}
