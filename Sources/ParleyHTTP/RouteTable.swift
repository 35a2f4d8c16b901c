import HTTPTypes
import Hummingbird

/// One endpoint: method, path pattern with `{name}` captures, and its handler.
struct Endpoint: Sendable {
    typealias Handler = @Sendable (Request, ParleyRequestContext) async throws -> Response
    let method: HTTPRequest.Method
    let path: String
    let handler: Handler

    init(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping Handler) {
        self.method = method
        self.path = path
        self.handler = handler
    }
}

/// Every endpoint the server has. It tells an unknown path (404) from a known path asked with the
/// wrong method (405), and lets the tests compare the server's routes with `openapi.yaml`.
public struct RouteTable: Sendable {
    /// "METHOD /path/{capture}" for every endpoint, in registration order.
    public let routes: [String]
    private let patterns: [(method: String, segments: [Substring])]

    init(endpoints: [Endpoint]) {
        routes = endpoints.map { "\($0.method.rawValue) \($0.path)" }
        patterns = endpoints.map { ($0.method.rawValue, $0.path.split(separator: "/")) }
    }

    /// The methods served on `path`, sorted; empty for an unknown path.
    func allowedMethods(for path: String) -> [String] {
        let segments = path.split(separator: "/")
        let methods = patterns.filter { pattern in
            pattern.segments.count == segments.count
                && zip(pattern.segments, segments).allSatisfy { expected, actual in expected.first == "{" || expected == actual }
        }.map(\.method)
        return Set(methods).sorted()
    }
}
