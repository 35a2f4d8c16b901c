import HTTPWire
import Hummingbird
import ParleyHTTPConventions
import ParleyUsers
import Prometheus

/// `GET /metrics` in Prometheus's text format: on the API port it needs the `Api-Token` (a
/// session token is refused); on the metrics port of its own (`PARLEY_METRICS_PORT`), which is
/// meant to be reachable only from the monitoring network, it needs nothing.
struct MetricsController {
    let registry: PrometheusCollectorRegistry
    /// Nil on the metrics port.
    let apiTokens: ApiTokenCheck?

    var routes: RouteCollection<ParleyRequestContext> {
        let routes = RouteCollection(context: ParleyRequestContext.self)
        routes.get("metrics") { [registry, apiTokens] request, context in
            if let apiTokens {
                let token = request.headers.value(of: AuthenticationMiddleware.apiTokenHeader) ?? ""
                context.trace.identify(try await apiTokens.authenticate(token, request, context).caller)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        return routes
    }
}
