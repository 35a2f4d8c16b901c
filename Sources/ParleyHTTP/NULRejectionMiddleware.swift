import Hummingbird
import ParleyCore

/// Refuses a request whose path or query encodes U+0000 (`%00`): PostgreSQL text cannot hold
/// it, and a C string would silently end there, so the server would act on a different value
/// than the one sent. (JSON bodies are checked when they are read.)
struct NULRejectionMiddleware: RouterMiddleware {
    typealias Context = ParleyRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let uri = request.uri.description
        if uri.contains("%00") || uri.utf8.contains(0) {
            throw ParleyError.invalidValue("request", "the path and query must not contain U+0000")
        }
        return try await next(request, context)
    }
}
