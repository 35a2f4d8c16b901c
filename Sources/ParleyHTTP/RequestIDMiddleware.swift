import HTTPTypes
import Hummingbird

/// Gives each request an id that is logged with everything about it and returned as
/// `X-Request-Id`. A well-formed id from the reverse proxy is kept, so logs join up across hops.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = ParleyRequestContext
    static let header = HTTPField.Name("X-Request-Id")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let incoming = request.headers[Self.header], Self.isWellFormed(incoming) {
            context.logger[metadataKey: "hb.request.id"] = .string(incoming)
        }
        var response = try await next(request, context)
        response.headers[Self.header] = context.id
        return response
    }

    /// 1–128 visible ASCII characters: anything else could forge log lines.
    static func isWellFormed(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && id.utf8.allSatisfy { $0 > 32 && $0 < 127 }
    }
}
