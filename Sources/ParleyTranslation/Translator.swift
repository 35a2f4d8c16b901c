/// One translation provider (API.md §9.3): one request translating a batch of texts into one
/// language. Adapters speak their provider's protocol and nothing else; retries, the circuit
/// breaker and protected spans are `ReliableTranslator`'s and `MessageTranslator`'s.
public protocol Translator: Sendable {
    /// Most texts one request may carry.
    var maxBatch: Int { get }
    /// Whether the provider translates into `language` (a code of `Languages.known`).
    func supports(_ language: String) -> Bool
    /// The texts in `language`, in order; throws `TranslationError`.
    func translate(_ texts: [String], to language: String, timeout: Duration) async throws -> [String]
}

/// How a provider call failed, which decides what happens next.
public enum TranslationError: Error, Equatable, CustomStringConvertible {
    /// Too many requests (429): retried after `retryAfter` or a backoff.
    case rateLimited(retryAfter: Duration?)
    /// The provider is down, slow or erring (5xx, timeouts, no connection): retried.
    case unavailable(String)
    /// The account's quota is spent (DeepL 456, Google's quota 403s): not retried.
    case quotaExceeded(String)
    /// Any other refusal (4xx): not retried.
    case rejected(status: Int, message: String)
    /// The answer did not have the shape of the provider's protocol.
    case malformedAnswer(String)
    /// No provider is configured, or the breaker is open: answered at once.
    case notAvailableNow

    public var description: String {
        switch self {
        case .rateLimited(let after): "rate limited" + (after.map { ", retry after \($0)" } ?? "")
        case .unavailable(let reason): "provider unavailable: \(reason)"
        case .quotaExceeded(let message): "quota exceeded: \(message)"
        case .rejected(let status, let message): "refused (\(status)): \(message)"
        case .malformedAnswer(let reason): "malformed answer: \(reason)"
        case .notAvailableNow: "translation is not available now"
        }
    }

    /// Worth another attempt.
    var isTransient: Bool {
        switch self {
        case .rateLimited, .unavailable: true
        default: false
        }
    }

    /// Says the provider is failing (the breaker counts these), rather than this request.
    var isProviderFailure: Bool {
        switch self {
        case .rateLimited, .unavailable, .quotaExceeded, .malformedAnswer: true
        case .rejected, .notAvailableNow: false
        }
    }
}
