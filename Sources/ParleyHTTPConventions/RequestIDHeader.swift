import HTTPTypes
import HTTPWire
import Hummingbird

/// Gives each request an id that is logged with everything about it and returned as
/// `X-Request-Id`. A well-formed id from the reverse proxy is kept, so logs join up across hops.
public enum RequestIDHeader {
    public static let name = HTTPField.Name("X-Request-Id")!

    /// Takes the proxy's id for this request's logs when it is well-formed.
    public static func adopt(_ request: Request, into context: inout ParleyRequestContext) {
        if let incoming = request.headers.value(of: name), isWellFormed(incoming) {
            context.logger[metadataKey: "hb.request.id"] = .string(incoming)
        }
    }

    /// 1–128 visible ASCII characters: anything else could forge log lines.
    public static func isWellFormed(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && id.utf8.allSatisfy { $0 > 32 && $0 < 127 }
    }
}
