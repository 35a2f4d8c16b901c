import Hummingbird
import ParleyContainer
import ParleyHTTPConventions

/// `GET /health` (the process runs) and `GET /ready` (database reachable, migrations applied).
struct HealthController {
    let readiness: ReadinessProbe

    var routes: RouteCollection<ParleyRequestContext> {
        let routes = RouteCollection(context: ParleyRequestContext.self)
        routes.get("health") { _, _ in
            Response(status: .ok, headers: JSONResponse.headers, body: ResponseBody(byteBuffer: Self.ok))
        }
        routes.get("ready") { [readiness] _, _ in
            let ready = await readiness.isReady()
            return try ready ? JSONResponse.make(["status": "ready"]) : ErrorResponses.response(for: .unavailable)
        }
        return routes
    }

    private static let ok = ByteBuffer(string: #"{"status":"ok"}"#)
}
