import CurlHTTP
import Foundation

/// DeepL API v2 (`POST /v2/translate`). The key goes in `Authorization: DeepL-Auth-Key …`,
/// never in the URL; free-plan keys (ending in `:fx`) use DeepL's free endpoint. Language codes
/// are DeepL's (`zh-CN` is `ZH-HANS`, `en` is `EN-US`).
public struct DeepLTranslator: Translator {
    public static let publicURL = "https://api.deepl.com"
    public static let freeURL = "https://api-free.deepl.com"
    private let call: ProviderCall
    private let endpoint: String
    private let key: String

    public init(client: CurlClient, baseURL: String?, key: String) {
        self.call = ProviderCall(client: client)
        let base = baseURL ?? (key.hasSuffix(":fx") ? Self.freeURL : Self.publicURL)
        self.endpoint = ProviderCall.base(base) + "/v2/translate"
        self.key = key
    }

    /// DeepL's limit of `text` entries per request.
    public var maxBatch: Int { 50 }

    /// DeepL's target languages for the codes of `Languages.known`.
    static let targets: [String: String] = {
        var targets: [String: String] = [
            "en": "EN-US", "pt": "PT-BR", "pt-BR": "PT-BR", "pt-PT": "PT-PT", "zh": "ZH-HANS", "zh-CN": "ZH-HANS",
            "zh-TW": "ZH-HANT", "no": "NB"
        ]
        for code in [
            "ar", "bg", "cs", "da", "de", "el", "es", "et", "fi", "fr", "hu", "id", "it", "ja", "ko", "lt", "lv", "nl", "pl", "ro", "ru",
            "sk", "sl", "sv", "tr", "uk"
        ] {
            targets[code] = code.uppercased()
        }
        return targets
    }()

    public func supports(_ language: String) -> Bool { Self.targets[language] != nil }

    private struct Request: Encodable {
        let text: [String]
        let target_lang: String
    }

    private struct Answer: Decodable {
        struct Translation: Decodable { let text: String }
        let translations: [Translation]
    }

    private struct Failure: Decodable { let message: String? }

    public func translate(_ texts: [String], to language: String, timeout: Duration) async throws -> [String] {
        guard let target = Self.targets[language] else { throw TranslationError.rejected(status: 400, message: "unsupported \(language)") }
        let response = try await call.postJSON(
            endpoint, headers: [("Authorization", "DeepL-Auth-Key \(key)")], body: Request(text: texts, target_lang: target),
            timeout: timeout)
        guard response.status == 200 else { throw Self.failure(response) }
        let answer = try ProviderCall.decode(Answer.self, response)
        return try ProviderCall.matched(answer.translations.map(\.text), texts)
    }

    private static func failure(_ response: OutboundResponse) -> TranslationError {
        let message =
            (try? JSONDecoder().decode(Failure.self, from: Data(response.body)))?.message
            ?? String(decoding: response.body.prefix(200), as: UTF8.self)
        switch response.status {
        case 456: return .quotaExceeded(message)
        // DeepL's "too many requests, high load".
        case 529: return .rateLimited(retryAfter: response.retryAfter)
        default: return ProviderCall.commonFailure(response, message: message) ?? .rejected(status: response.status, message: message)
        }
    }
}
