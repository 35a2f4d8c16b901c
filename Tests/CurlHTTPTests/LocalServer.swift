import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

/// A real HTTP server on a free local port, for the client to talk to.
func withLocalServer(_ router: Router<BasicRequestContext>, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
    let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    try await app.test(.live) { client in
        guard let port = client.port else { throw LocalServerError.noPort }
        try await body(port)
    }
}

enum LocalServerError: Error { case noPort }

/// The routes the client tests use.
func testRoutes() -> Router<BasicRequestContext> {
    let router = Router()
    router.get("hello") { _, _ in "hello" }
    router.post("echo") { request, _ -> Response in
        let body = try await request.body.collect(upTo: 1 << 24)
        var headers = HTTPFields()
        headers[.contentType] = request.headers[.contentType] ?? "application/octet-stream"
        if let value = request.headers[HTTPField.Name("X-Probe")!] { headers[HTTPField.Name("X-Probe")!] = value }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }
    // A body of `bytes` bytes, announced with Content-Length.
    router.get("sized/:bytes") { _, context -> Response in
        let bytes = Int(context.parameters.get("bytes") ?? "0") ?? 0
        return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: UInt8(ascii: "x"), count: bytes)))
    }
    // Chunks without an announced length, for as long as the client reads.
    router.get("endless") { _, _ -> Response in
        Response(
            status: .ok,
            body: .init { writer in
                let chunk = ByteBuffer(repeating: UInt8(ascii: "y"), count: 64 * 1024)
                while true { try await writer.write(chunk) }
            })
    }
    router.get("slow/:millis") { _, context -> String in
        let millis = Int(context.parameters.get("millis") ?? "0") ?? 0
        try await Task.sleep(for: .milliseconds(millis))
        return "late"
    }
    router.get("redirect") { _, _ -> Response in
        Response(status: .found, headers: [.location: "/hello"])
    }
    router.get("redirect-to-file") { _, _ -> Response in
        Response(status: .found, headers: [.location: "file:///etc/passwd"])
    }
    return router
}

/// Redirects: a chain of `n` hops that lands, and hops into refused destinations.
func redirectingRoutes() -> Router<BasicRequestContext> {
    let router = Router()
    router.get("hop/:count") { _, context -> Response in
        let count = Int(context.parameters.get("count") ?? "0") ?? 0
        return Response(status: .found, headers: [.location: count > 0 ? "/hop/\(count - 1)" : "/landed"])
    }
    router.get("landed") { _, _ in "landed" }
    router.get("to-internal") { _, _ -> Response in Response(status: .movedPermanently, headers: [.location: "http://10.0.0.1/"]) }
    router.get("to-metadata-name") { _, _ -> Response in
        Response(status: .temporaryRedirect, headers: [.location: "http://metadata.test/latest/meta-data/"])
    }
    return router
}
