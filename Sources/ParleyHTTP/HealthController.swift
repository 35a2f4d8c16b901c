import Hummingbird
import ParleyContainer

/// `GET /health` (the process runs) and `GET /ready` (database reachable, migrations applied).
struct HealthController {
    let readiness: ReadinessProbe

    var endpoints: [Endpoint] {
        [
            Endpoint(.get, "/health") { _, _ in
                Response(status: .ok, headers: [.contentType: JSONResponse.contentType], body: ResponseBody(byteBuffer: Self.ok))
            },
            Endpoint(.get, "/ready") { [readiness] _, _ in
                let ready = await readiness.isReady()
                return ready ? JSONResponse.make(["status": "ready"]) : ErrorResponses.response(for: .unavailable)
            },
        ]
    }

    private static let ok = ByteBuffer(string: #"{"status":"ok"}"#)
}
