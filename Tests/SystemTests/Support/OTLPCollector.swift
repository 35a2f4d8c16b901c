import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization

/// A local OpenTelemetry collector for the tracing tests: takes OTLP/HTTP exports
/// (`POST /v1/traces`, protobuf) and keeps their bodies. The tests look for a trace's id (16 raw
/// bytes) and span names (their UTF-8 bytes) in them rather than decoding the protobuf.
final class OTLPCollector: Sendable {
    private let bodies = Mutex<[[UInt8]]>([])

    var exports: [[UInt8]] { bodies.withLock { $0 } }

    /// Whether any export holds every one of `needles`, each within the same export.
    func anyExportHolds(_ needles: [[UInt8]]) -> Bool {
        exports.contains { body in needles.allSatisfy { Self.contains(body, $0) } }
    }

    func anyExportHolds(_ needle: [UInt8]) -> Bool { exports.contains { Self.contains($0, needle) } }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in haystack[start..<start + needle.count].elementsEqual(needle) }
    }

    /// Runs `body` with the collector listening; its base URL is passed in.
    func run(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        router.post("v1/traces") { request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 24)
            self.bodies.withLock { $0.append(Array(buffer: bytes)) }
            // An empty ExportTraceServiceResponse: everything accepted.
            return Response(status: .ok, headers: [.contentType: "application/x-protobuf"], body: .init(byteBuffer: ByteBuffer()))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body("http://127.0.0.1:\(client.port!)") }
    }
}

extension String {
    /// The bytes of a hex string (a trace id's 32 characters are its 16 bytes on the wire).
    var hexBytes: [UInt8] {
        var bytes: [UInt8] = []
        var index = startIndex
        while index < endIndex, let next = self.index(index, offsetBy: 2, limitedBy: endIndex) {
            bytes.append(UInt8(self[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
}
