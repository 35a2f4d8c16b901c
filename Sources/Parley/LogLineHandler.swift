import ByteCoding
import Foundation
import Logging
import ParleyContainer
import ParleyCore
import Synchronization

/// Renders each log event as one line, text or JSON (`PARLEY_LOG_FORMAT`), and hands it to the
/// `LogWriter`.
///
/// At `info` every request is logged, so this is on the request path: it merges no dictionaries
/// and sorts nothing, renders string values as they are, and formats the time itself (Foundation's
/// ISO 8601 formatting and swift-log's `StreamLogHandler`, which re-renders all metadata whenever
/// a value is set, made request logging cost the user lookup 30 µs of server CPU per request,
/// scripts/bench/foundation with BENCH_LOG_LEVEL=info).
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
        // The event's own fields win over the handler's and the provider's with the same name.
        let extra = event.metadata ?? [:]
        let provided = metadataProvider?.get() ?? [:]
        var fields: [(String, String)] = []
        fields.reserveCapacity(extra.count + metadata.count + provided.count)
        for (key, value) in extra { fields.append((key, Self.render(value))) }
        for (key, value) in provided where extra[key] == nil { fields.append((key, Self.render(value))) }
        for (key, value) in metadata where extra[key] == nil && provided[key] == nil { fields.append((key, Self.render(value))) }
        let time = LogTime.now()
        switch format {
        case .text:
            var line = "\(time) \(event.level) \(label): \(event.message)"
            for (key, value) in fields { line += " \(Self.outputName(key))=\(value)" }
            line += "\n"
            LogWriter.standardError.enqueue(Array(line.utf8))
        case .json:
            var json = JSONWriter(capacity: 384)
            json.object { json in
                json.field("time", time)
                json.field("level", event.level.rawValue)
                json.field("label", label)
                json.field("message", "\(event.message)")
                for (key, value) in fields where !Self.reserved.contains(key) { json.member(Self.outputName(key), value) }
            }
            LogWriter.standardError.enqueue(json.bytes + [UInt8(ascii: "\n")])
        }
    }

    private static let reserved: Set<String> = ["time", "level", "label", "message"]

    private static func render(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        default: value.description
        }
    }

    /// Hummingbird names the request id `hb.request.id`; operators search for `request_id`.
    private static func outputName(_ key: String) -> String {
        key == "hb.request.id" ? "request_id" : key
    }
}

/// The UTC time as `2026-11-25T10:33:46.123Z`, from the system clock; the part up to the second
/// is formatted once per second.
enum LogTime {
    private static let cache = Mutex<(second: Int, prefix: String)>((-1, ""))

    static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let second = spec.tv_sec
        let millis = Int(spec.tv_nsec / 1_000_000)
        let prefix = cache.withLock { cache -> String in
            if cache.second == second { return cache.prefix }
            var parts = tm()
            var seconds = second
            gmtime_r(&seconds, &parts)
            let text =
                "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
                + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
            cache = (second, text)
            return text
        }
        return prefix + (millis < 10 ? ".00" : millis < 100 ? ".0" : ".") + String(millis) + "Z"
    }

    private static func two(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}
