import HTTPTypes
import Hummingbird
import ParleyHTTPConventions

/// The browser pages Parley serves when `PARLEY_WEB_DIR` names their folder: the reference chat
/// app at `/app/`, the operator console at `/console/`, and the JavaScript SDK they load at
/// `/sdk/`. Static files only: every action of a page is a documented API call.
enum WebPages {
    static let folders = ["app", "console", "sdk"]

    static func add(to router: Router<ParleyRequestContext>, directory: String) {
        router.add(middleware: WebPageHeaders(prefixes: folders.map { "/\($0)" }))
        for folder in folders {
            router.add(
                middleware: FileMiddleware(
                    "\(directory)/\(folder)", urlBasePath: "/\(folder)", cacheControl: .init([(MediaType(type: .any), [.noCache])]),
                    searchForIndexHtml: true))
        }
    }
}

/// Headers of every page response: a strict Content-Security-Policy (scripts and styles from
/// Parley's own origin only, never inline; no frames, no plugins, no form posts; connections to
/// the API and the event stream of this origin), no MIME sniffing, no referrer, no framing.
struct WebPageHeaders<Context: RequestContext>: RouterMiddleware {
    let prefixes: [String]

    static var policy: String {
        [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
            // Thumbnails and files come from this origin (blob: for local previews); a link
            // preview's image may be anywhere on the web.
            "img-src 'self' blob: data: https:", "media-src 'self' blob:", "font-src 'self'", "manifest-src 'self'",
            "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"
        ].joined(separator: "; ")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard prefixes.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else { return try await next(request, context) }
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "no-referrer"
        response.headers[.xFrameOptions] = "DENY"
        return response
    }
}

extension HTTPField.Name {
    static let contentSecurityPolicy = Self("Content-Security-Policy")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let xFrameOptions = Self("X-Frame-Options")!
}
