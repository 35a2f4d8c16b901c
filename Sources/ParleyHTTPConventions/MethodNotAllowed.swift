import HTTPTypes
import Hummingbird

/// 405 with `Allow` (RFC 9110 §15.5.6) for a known path asked with another method.
///
/// Hummingbird answers a path it knows, asked with a method it does not, like an unknown path.
/// So every known path also gets the other methods, answering 405 and listing exactly the
/// methods of that path: the router's own matching decides which path a request is, so a
/// literal segment (`…/messages/mark_as_read`) is never mistaken for a capture
/// (`…/messages/{message_id}`). They sit outside the `/v3` group, so no token is asked for.
public enum MethodNotAllowed {
    /// The methods a client may ask any path with: the common ones, TRACE, and QUERY (the safe
    /// method with a body of draft-ietf-httpbis-safe-method-w-body).
    public static let methods: [HTTPRequest.Method] = [
        .get, .post, .put, .delete, .patch, .head, .options, .trace, HTTPRequest.Method("QUERY")!
    ]

    public static func register(on router: Router<ParleyRequestContext>) {
        var byPath: [String: (path: RouterPath, methods: Set<HTTPRequest.Method>)] = [:]
        for route in router.routes {
            byPath[route.path.description, default: (route.path, [])].methods.insert(route.method)
        }
        for (path, served) in byPath.values {
            let allow = served.map(\.rawValue).sorted().joined(separator: ", ")
            for method in methods where !served.contains(method) {
                router.on(path, method: method) { _, _ in ErrorResponses.methodNotAllowed(allow: allow) }
            }
        }
    }
}
