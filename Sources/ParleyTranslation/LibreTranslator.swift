import CurlHTTP
import Foundation

/// LibreTranslate (`POST /translate`), self-hosted; the key (`api_key`) only when the instance
/// asks for one.
public struct LibreTranslator: Translator {
    public static let publicURL = "https://libretranslate.com"
    private let call: ProviderCall
    private let endpoint: String
    private let key: String?

    public init(client: CurlClient, baseURL: String?, key: String?) {
        self.call = ProviderCall(client: client)
        self.endpoint = ProviderCall.base(baseURL ?? Self.publicURL) + "/translate"
        self.key = key.flatMap { $0.isEmpty ? nil : $0 }
    }

    public var maxBatch: Int { 25 }

    /// The instance decides what it has installed; an unknown target comes back as a 400.
    public func supports(_ language: String) -> Bool { Languages.known.contains(language) }

    /// LibreTranslate's codes: scripts for Chinese, bare languages otherwise.
    static func target(_ language: String) -> String {
        switch language {
        case "zh", "zh-CN": "zh-Hans"
        case "zh-TW": "zh-Hant"
        default: String(language.prefix { $0 != "-" })
        }
    }

    private struct Request: Encodable {
        let q: [String]
        let source = "auto"
        let target: String
        let format = "text"
        let api_key: String?
    }

    private struct Answer: Decodable { let translatedText: [String] }
    private struct Failure: Decodable { let error: String? }

    public func translate(_ texts: [String], to language: String, timeout: Duration) async throws -> [String] {
        let response = try await call.postJSON(
            endpoint, headers: [], body: Request(q: texts, target: Self.target(language), api_key: key), timeout: timeout)
        guard response.status == 200 else {
            let message =
                (try? JSONDecoder().decode(Failure.self, from: Data(response.body)))?.error
                ?? String(decoding: response.body.prefix(200), as: UTF8.self)
            throw ProviderCall.commonFailure(response, message: message) ?? .rejected(status: response.status, message: message)
        }
        let answer = try ProviderCall.decode(Answer.self, response)
        return try ProviderCall.matched(answer.translatedText, texts)
    }
}
