import Traced
import Tracing

/// Outbound calls as client spans (issue 37): each request carries the W3C `traceparent` of its
/// span, so a webhook receiver, a push provider or a translation service sees the trace it is
/// part of; only inside a recorded trace (`Traced`), so an unsampled request pays nothing here.
extension CurlClient {
    func traced(_ request: OutboundRequest, _ send: (OutboundRequest) async throws -> OutboundResponse) async throws -> OutboundResponse {
        try await Traced.span("HTTP \(request.method.rawValue)", ofKind: .client) { span in
            guard let span else { return try await send(request) }
            var request = request
            InstrumentationSystem.instrument.inject(span.context, into: &request.headers, using: OutboundHeaderInjector())
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["url.full"] = Self.withoutQuery(request.url)
            let response = try await send(request)
            span.attributes["http.response.status_code"] = response.status
            if response.status >= 500 { span.setStatus(SpanStatus(code: .error)) }
            return response
        }
    }

    /// The URL without its query, which may hold keys (a translation provider's).
    static func withoutQuery(_ url: String) -> String {
        url.firstIndex(of: "?").map { String(url[..<$0]) } ?? url
    }
}

struct OutboundHeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [(name: String, value: String)]) {
        carrier.removeAll { $0.name.lowercased() == key.lowercased() }
        carrier.append((name: key, value: value))
    }
}
