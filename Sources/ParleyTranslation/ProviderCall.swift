import CurlHTTP
import Foundation

/// The HTTP part every adapter shares: a JSON POST through CurlHTTP, and the failures every
/// provider reports alike (429, 5xx, no answer) as `TranslationError`s.
struct ProviderCall: Sendable {
    let client: CurlClient

    /// Providers answer small JSON documents; a larger answer is not one.
    static let maxAnswerBytes = 4 << 20

    func postJSON(_ url: String, headers: [(name: String, value: String)], body: some Encodable, timeout: Duration) async throws
        -> OutboundResponse
    {
        let bytes = Array(try JSONEncoder().encode(body))
        let request = OutboundRequest(
            .post, url, headers: [("Content-Type", "application/json"), ("Accept", "application/json")] + headers, body: bytes,
            connectTimeout: min(timeout, .seconds(3)), timeout: timeout, maxResponseBytes: Self.maxAnswerBytes)
        do {
            return try await client.send(request)
        } catch let error as OutboundError {
            switch error {
            case .responseTooLarge: throw TranslationError.malformedAnswer("\(error)")
            case .invalidURL: throw TranslationError.rejected(status: 0, message: "\(error)")
            default: throw TranslationError.unavailable("\(error)")
            }
        }
    }

    /// The failure a non-2xx answer means, for the statuses every provider uses alike; nil for
    /// the ones the adapter decides itself.
    static func commonFailure(_ response: OutboundResponse, message: String) -> TranslationError? {
        switch response.status {
        case 429: .rateLimited(retryAfter: response.retryAfter)
        case 500...599: .unavailable("\(response.status): \(message)")
        default: nil
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: OutboundResponse) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(response.body))
        } catch {
            throw TranslationError.malformedAnswer("\(response.status): \(String(decoding: response.body.prefix(200), as: UTF8.self))")
        }
    }

    /// The translations, if there is one for each text sent.
    static func matched(_ translations: [String], _ texts: [String]) throws -> [String] {
        guard translations.count == texts.count else {
            throw TranslationError.malformedAnswer("\(translations.count) translations for \(texts.count) texts")
        }
        return translations
    }

    /// The base URL without a trailing slash.
    static func base(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}
