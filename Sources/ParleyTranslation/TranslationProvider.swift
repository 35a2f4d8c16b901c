import CurlHTTP

/// `PARLEY_TRANSLATION_PROVIDER` (API.md §9.3) with its URL and key.
public struct TranslationSettings: Sendable {
    public enum Provider: String, Sendable, CaseIterable {
        case google, deepl, libretranslate, none
    }

    public var provider: Provider = .none
    /// The provider's base URL; nil for its public endpoint.
    public var url: String?
    public var key: String?

    public init() {}

    /// Why these settings cannot work, worded for the operator; nil when they can.
    public var problem: String? {
        switch provider {
        // Each pattern needs its own `where`: `case .google, .deepl where …` would refuse Google always.
        case .google where (key ?? "").isEmpty, .deepl where (key ?? "").isEmpty:
            "PARLEY_TRANSLATION_KEY is required for PARLEY_TRANSLATION_PROVIDER=\(provider.rawValue)."
        default:
            if let url, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                "PARLEY_TRANSLATION_URL must be an http or https URL, not \"\(url)\"."
            } else {
                nil
            }
        }
    }

    /// The provider's adapter with retries and the breaker; nil for `none`.
    public func translator(client: CurlClient) -> ReliableTranslator? {
        let adapter: (any Translator)? =
            switch provider {
            case .google: GoogleTranslator(client: client, baseURL: url, key: key ?? "")
            case .deepl: DeepLTranslator(client: client, baseURL: url, key: key ?? "")
            case .libretranslate: LibreTranslator(client: client, baseURL: url, key: key)
            case .none: nil
            }
        return adapter.map { ReliableTranslator($0) }
    }
}
