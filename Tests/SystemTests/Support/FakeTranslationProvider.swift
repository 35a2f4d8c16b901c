import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization

/// A local stand-in for the three translation providers, speaking each one's real protocol:
/// its path, its auth header, its request body (batched texts, target, format), its answer and
/// its error bodies. It "translates" by prefixing each text with `[target]`, and it refuses what
/// the real provider would refuse (a missing or wrong key, Google without `format: text`, a key
/// in the URL). A script of failures and delays goes first, one per request.
final class FakeTranslationProvider: Sendable {
    enum Kind: String, Sendable { case google, deepl, libretranslate }

    enum Step: Sendable {
        /// Answers with this status, headers and body instead of translating.
        case fail(status: Int, body: String, headers: [String: String] = [:])
        /// Waits this long, then translates.
        case delay(Duration)
    }

    /// One request as the provider received it.
    struct Received: Sendable {
        let path: String
        let query: String
        let headers: [String: String]
        let texts: [String]
        let target: String
    }

    let kind: Kind
    let key: String
    private let state = Mutex<(script: [Step], received: [Received])>(([], []))

    init(_ kind: Kind, key: String = "test-key") {
        self.kind = kind
        self.key = key
    }

    func script(_ steps: [Step]) { state.withLock { $0.script += steps } }
    var received: [Received] { state.withLock { $0.received } }

    /// Runs `body` with the provider listening; its base URL is passed in.
    func run(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        let path: RouterPath =
            switch kind {
            case .google: "language/translate/v2"
            case .deepl: "v2/translate"
            case .libretranslate: "translate"
            }
        router.post(path) { request, _ in try await self.answer(request) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(client.port!)")
        }
    }

    private func answer(_ request: Request) async throws -> Response {
        let bytes = try await request.body.collect(upTo: 1 << 22)
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:]
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        let (texts, target) = parse(json)
        let step = state.withLock { state -> Step? in
            state.received.append(
                Received(path: request.uri.path, query: request.uri.query ?? "", headers: headers, texts: texts, target: target))
            return state.script.isEmpty ? nil : state.script.removeFirst()
        }
        switch step {
        case .fail(let status, let body, let extra):
            var fields = HTTPFields()
            fields[.contentType] = "application/json"
            for (name, value) in extra { fields[HTTPField.Name(name)!] = value }
            return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: body)))
        case .delay(let duration): try await Task.sleep(for: duration)
        case nil: break
        }
        if let refusal = refusal(headers: headers, query: request.uri.query ?? "", json: json, texts: texts, target: target) {
            return refusal
        }
        let translated = texts.map { "[\(target)] \($0)" }
        let answer: Any =
            switch kind {
            case .google: ["data": ["translations": translated.map { ["translatedText": $0, "detectedSourceLanguage": "en"] }]]
            case .deepl: ["translations": translated.map { ["detected_source_language": "EN", "text": $0] }]
            case .libretranslate:
                ["translatedText": translated, "detectedLanguage": translated.map { _ in ["confidence": 90, "language": "en"] }]
            }
        return Self.json(200, answer)
    }

    private func parse(_ json: [String: Any]) -> (texts: [String], target: String) {
        switch kind {
        case .google, .libretranslate:
            let texts = json["q"] as? [String] ?? (json["q"] as? String).map { [$0] } ?? []
            return (texts, json["target"] as? String ?? "")
        case .deepl:
            return (json["text"] as? [String] ?? [], json["target_lang"] as? String ?? "")
        }
    }

    /// What the real provider answers to a request that is not right.
    private func refusal(headers: [String: String], query: String, json: [String: Any], texts: [String], target: String) -> Response? {
        switch kind {
        case .google:
            if query.contains("key=") { return Self.googleError(400, "key in the URL", reason: "badRequest") }
            guard headers["x-goog-api-key"] == key else { return Self.googleError(400, "API key not valid.", reason: "keyInvalid") }
            guard json["format"] as? String == "text" else { return Self.googleError(400, "format must be text here", reason: "invalid") }
            guard !texts.isEmpty, texts.count <= 128, !target.isEmpty else {
                return Self.googleError(400, "Invalid Value", reason: "invalid")
            }
        case .deepl:
            guard headers["authorization"] == "DeepL-Auth-Key \(key)" else { return Self.json(403, ["message": "Wrong auth key"]) }
            guard !texts.isEmpty, texts.count <= 50, target == target.uppercased(), !target.isEmpty else {
                return Self.json(400, ["message": "Bad request. Reason: Value for 'target_lang' not supported."])
            }
        case .libretranslate:
            guard json["api_key"] as? String == key else { return Self.json(403, ["error": "Invalid API key"]) }
            guard json["format"] as? String == "text", json["source"] as? String == "auto", !texts.isEmpty, !target.isEmpty else {
                return Self.json(400, ["error": "Invalid request: missing q, source or target"])
            }
        }
        return nil
    }

    static func googleError(_ code: Int, _ message: String, reason: String) -> Response {
        json(code, ["error": ["code": code, "message": message, "errors": [["message": message, "domain": "global", "reason": reason]]]])
    }

    static func json(_ status: Int, _ object: Any) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(
            status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
