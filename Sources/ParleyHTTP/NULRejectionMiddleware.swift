import Hummingbird
import ParleyCore

/// Refuses a request whose path or query encodes U+0000 (`%00`): PostgreSQL text cannot hold
/// it, and a C string would silently end there, so the server would act on a different value
/// than the one sent. (JSON bodies are checked when they are read.)
struct NULRejectionMiddleware: RouterMiddleware {
    typealias Context = ParleyRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.encodesNUL(request.uri.description) {
            throw ParleyError.invalidValue("request", "the path and query must not contain U+0000")
        }
        return try await next(request, context)
    }

    /// A raw NUL byte or the escape `%00`; a byte scan, since this runs on every request.
    static func encodesNUL(_ uri: String) -> Bool {
        var previous: (UInt8, UInt8) = (0xFF, 0xFF)
        for byte in uri.utf8 {
            if byte == 0 || (previous == (UInt8(ascii: "%"), UInt8(ascii: "0")) && byte == UInt8(ascii: "0")) { return true }
            previous = (previous.1, byte)
        }
        return false
    }
}
