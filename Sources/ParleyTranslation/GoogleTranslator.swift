import CurlHTTP
import Foundation

/// Google Cloud Translation v2 (`POST /language/translate/v2`). The key goes in the
/// `X-Goog-Api-Key` header (never the URL, which ends up in logs); `format` is always `text`,
/// since the default, `html`, returns quotes and ampersands as entities.
public struct GoogleTranslator: Translator {
    public static let publicURL = "https://translation.googleapis.com"
    private let call: ProviderCall
    private let endpoint: String
    private let key: String

    public init(client: CurlClient, baseURL: String?, key: String) {
        self.call = ProviderCall(client: client)
        self.endpoint = ProviderCall.base(baseURL ?? Self.publicURL) + "/language/translate/v2"
        self.key = key
    }

    /// Google's documented limit of `q` segments per request.
    public var maxBatch: Int { 128 }

    public func supports(_ language: String) -> Bool { Languages.known.contains(language) }

    private struct Request: Encodable {
        let q: [String]
        let target: String
        let format = "text"
    }

    private struct Answer: Decodable {
        struct Data: Decodable {
            struct Translation: Decodable { let translatedText: String }
            let translations: [Translation]
        }
        let data: Data
    }

    private struct Failure: Decodable {
        struct Body: Decodable {
            struct Reason: Decodable { let reason: String? }
            let code: Int?
            let message: String?
            let errors: [Reason]?
        }
        let error: Body
    }

    public func translate(_ texts: [String], to language: String, timeout: Duration) async throws -> [String] {
        let response = try await call.postJSON(
            endpoint, headers: [("X-Goog-Api-Key", key)], body: Request(q: texts, target: language), timeout: timeout)
        guard response.status == 200 else { throw Self.failure(response) }
        let answer = try ProviderCall.decode(Answer.self, response)
        return try ProviderCall.matched(answer.data.translations.map(\.translatedText), texts)
    }

    private static func failure(_ response: OutboundResponse) -> TranslationError {
        let body = try? JSONDecoder().decode(Failure.self, from: Data(response.body))
        let message = body?.error.message ?? String(decoding: response.body.prefix(200), as: UTF8.self)
        let reasons = Set(body?.error.errors?.compactMap(\.reason) ?? [])
        // Google reports a spent quota and per-user rate limits as 403s with a reason.
        if !reasons.isDisjoint(with: ["dailyLimitExceeded", "quotaExceeded", "dailyLimitExceededUnreg"]) {
            return .quotaExceeded(message)
        }
        if !reasons.isDisjoint(with: ["userRateLimitExceeded", "rateLimitExceeded"]) {
            return .rateLimited(retryAfter: response.retryAfter)
        }
        return ProviderCall.commonFailure(response, message: message) ?? .rejected(status: response.status, message: message)
    }
}
