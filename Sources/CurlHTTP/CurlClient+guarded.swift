import Foundation
import OutboundPolicy

extension CurlClient {
    /// Sends `request` to its URL once the guard allows it, pinned to the checked address, and
    /// follows up to `OutboundGuard.maxRedirects` redirects (GET), each checked again.
    /// `request.maxRedirects` is ignored: libcurl never follows one by itself here.
    public func send(_ request: OutboundRequest, guardedBy guard: OutboundGuard) async throws -> OutboundResponse {
        var current = request
        current.maxRedirects = 0
        for hop in 0...OutboundGuard.maxRedirects {
            let destination = try await `guard`.check(current.url)
            current.url = destination.url
            current.pins = [OutboundRequest.Pin(destination)]
            let response = try await send(current)
            guard (300...399).contains(response.status), response.status != 304, let location = response.header("Location") else {
                return response
            }
            guard hop < OutboundGuard.maxRedirects else { throw OutboundRefusal("more than \(OutboundGuard.maxRedirects) redirects") }
            guard let next = URL(string: location, relativeTo: URL(string: current.url))?.absoluteURL.absoluteString else {
                throw OutboundRefusal("redirect to an unreadable location")
            }
            current = OutboundRequest(
                .get, next, headers: request.headers.filter { $0.name.lowercased() != "authorization" },
                connectTimeout: request.connectTimeout, timeout: request.timeout, maxResponseBytes: request.maxResponseBytes)
        }
        throw OutboundRefusal("more than \(OutboundGuard.maxRedirects) redirects")
    }
}

extension OutboundRequest.Pin {
    /// The address the guard checked, for the host and port it checked it for.
    public init(_ destination: OutboundGuard.Destination) {
        self.init(host: destination.bareHost, port: destination.port, address: destination.address)
    }
}
