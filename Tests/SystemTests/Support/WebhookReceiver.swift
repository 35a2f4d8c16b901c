import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization

/// A local webhook receiver: records every delivery byte for byte, and answers from a script
/// (statuses, delays) before answering 200.
final class WebhookReceiver: Sendable {
    struct Received: Sendable {
        let headers: [String: String]
        let body: String
        /// When it arrived, to check the waits between attempts.
        var at = ContinuousClock.now
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
    }

    enum Step: Sendable {
        case status(Int, headers: [String: String] = [:])
        case delay(Duration)
    }

    private let state = Mutex<(script: [Step], received: [Received])>(([], []))

    func script(_ steps: [Step]) { state.withLock { $0.script += steps } }
    var received: [Received] { state.withLock { $0.received } }

    /// The deliveries about `channelURL` (other tests' servers share nothing with this one, but
    /// a test may make several channels).
    func received(about channelURL: String) -> [Received] {
        received.filter { (($0.json["channel"] as? [String: Any])?["channel_url"] as? String) == channelURL }
    }

    func run(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let router = Router()
        router.post("hook") { request, _ in try await self.answer(request) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(client.port!) }
    }

    private func answer(_ request: Request) async throws -> Response {
        let bytes = try await request.body.collect(upTo: 1 << 22)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let step = state.withLock { state -> Step? in
            state.received.append(Received(headers: headers, body: String(buffer: bytes)))
            return state.script.isEmpty ? nil : state.script.removeFirst()
        }
        switch step {
        case .status(let code, let extra):
            var fields = HTTPFields()
            for (name, value) in extra { fields[HTTPField.Name(name)!] = value }
            return Response(status: .init(code: code), headers: fields, body: .init(byteBuffer: ByteBuffer(string: "no")))
        case .delay(let duration):
            try await Task.sleep(for: duration)
        case nil:
            break
        }
        return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "ok")))
    }
}
