import HTTPTypes
import Hummingbird
import OwnedTasks
import Traced
import Tracing

/// The conventions of API.md §1 that hold for every request, applied in one layer: the request
/// id, the refusal of control characters in the path and query, the JSON body limit, the error body for
/// every failure, the request metrics and the request log.
///
/// One middleware rather than three: every layer of Hummingbird's middleware chain is an async
/// call with its own copies of the request and context. Merging the three (and setting file
/// links with authentication instead of in a layer of their own) took the user lookup's server
/// CPU from 56 to 52 µs per request.
public struct ConventionsMiddleware: RouterMiddleware {
    public typealias Context = ParleyRequestContext
    public let errors: ErrorResponses
    /// `Limits.jsonBodyBytes`: what `request.decode` reads at most.
    public let maxJSONBodyBytes: Int
    /// `Limits.responseBytes`: what the items of an answer may take (`ResponseBudget`).
    public let maxResponseBytes: Int
    public let requestLog: RequestLog
    /// Nil when metrics are off.
    public let metrics: RequestMetrics?

    public init(errors: ErrorResponses, maxJSONBodyBytes: Int, maxResponseBytes: Int, requestLog: RequestLog, metrics: RequestMetrics?) {
        self.errors = errors
        self.maxJSONBodyBytes = maxJSONBodyBytes
        self.maxResponseBytes = maxResponseBytes
        self.requestLog = requestLog
        self.metrics = metrics
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        metrics?.active.increment()
        defer { metrics?.active.decrement() }
        var context = context
        RequestIDHeader.adopt(request, into: &context)
        context.maxUploadSize = maxJSONBodyBytes
        context.clients = requestLog.clients
        // A server span (issue 37) for a request in a caller's trace (`traceparent`) or picked to
        // start one (`Traced`); the spans of its transactions and outbound calls nest in it.
        var caller: InstrumentationContext?
        if request.headers[RequestHeaderExtractor.traceparent] != nil {
            caller = .topLevel
            InstrumentationSystem.instrument.extract(request.headers, into: &caller!, using: RequestHeaderExtractor())
        }
        return try await Traced.root("HTTP \(request.method.rawValue)", parent: caller, ofKind: .server) { span in
            var response: Response
            do {
                try ControlCharacterRejection.check(request.uri.description)
                // Work this request leaves behind (`TaskOwner.spawn`) is logged with its id.
                response = try await TaskOwner.$requestID.withValue(context.id) {
                    try await ResponseBudget.$bytes.withValue(maxResponseBytes) { try await next(request, context) }
                }
            } catch {
                response = errors.response(for: error, request: request, context: context)
            }
            response.headers[RequestIDHeader.name] = context.id
            let route = context.endpointPath ?? "unmatched"
            let status = Int(response.status.code)
            metrics?.record(route: route, method: request.method, status: status, since: started)
            requestLog.record(request, route: route, status: status, context: context, since: started)
            if let span, span.isRecording {
                span.operationName = "\(request.method.rawValue) \(route)"
                span.attributes["http.request.method"] = request.method.rawValue
                span.attributes["http.route"] = route
                span.attributes["http.response.status_code"] = status
                span.attributes["parley.request_id"] = context.id
                if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
            }
            return response
        }
    }
}

/// Reads `traceparent` and `tracestate` from a request's headers.
struct RequestHeaderExtractor: Extractor {
    static let traceparent = HTTPField.Name("traceparent")!

    func extract(key: String, from carrier: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { carrier[$0] }
    }
}
