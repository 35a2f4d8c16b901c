import Foundation
import Synchronization

/// A provider with retries and a circuit breaker (API.md §9.3): 429 and 5xx are tried again
/// (after `Retry-After`, or a backoff with jitter) while the deadline allows; quota errors and
/// other refusals are not; after `failureThreshold` provider failures in a row the breaker opens,
/// and for `openFor` every call fails at once rather than wait on a provider that is down. Then
/// one call goes through as a trial: its success closes the breaker, its failure opens it again.
public final class ReliableTranslator: Sendable {
    public struct Policy: Sendable {
        public var maxAttempts = 3
        public var firstBackoff: Duration = .milliseconds(200)
        public var maxBackoff: Duration = .seconds(5)
        public var failureThreshold = 5
        public var openFor: Duration = .seconds(30)
        public init() {}
    }

    private enum Breaker {
        case closed(failures: Int)
        case open(until: ContinuousClock.Instant)
        case trial
    }

    public let provider: any Translator
    private let policy: Policy
    private let breaker = Mutex(Breaker.closed(failures: 0))

    public init(_ provider: any Translator, policy: Policy = Policy()) {
        self.provider = provider
        self.policy = policy
    }

    /// The texts in `language`, done before `deadline`; throws `TranslationError`.
    public func translate(_ texts: [String], to language: String, deadline: ContinuousClock.Instant) async throws -> [String] {
        guard admit() else {
            TranslationMetrics.shed.increment()
            throw TranslationError.notAvailableNow
        }
        var attempt = 1
        while true {
            let remaining = deadline - .now
            do {
                guard remaining > .milliseconds(10) else { throw TranslationError.unavailable("no time left") }
                TranslationMetrics.calls.increment()
                let translated = try await provider.translate(texts, to: language, timeout: remaining)
                record(success: true)
                return translated
            } catch let error as TranslationError {
                TranslationMetrics.errors.increment()
                let wait = backoff(after: error, attempt: attempt)
                guard error.isTransient, attempt < policy.maxAttempts, .now + wait < deadline else {
                    record(success: !error.isProviderFailure)
                    throw error
                }
                do { try await Task.sleep(for: wait) } catch {
                    abandon()
                    throw error
                }
                attempt += 1
            } catch {
                abandon()
                throw error
            }
        }
    }

    /// `Retry-After` when the provider said, otherwise a doubling backoff with full jitter.
    private func backoff(after error: TranslationError, attempt: Int) -> Duration {
        if case .rateLimited(let retryAfter?) = error { return retryAfter }
        let ceiling = min(policy.firstBackoff * (1 << (attempt - 1)), policy.maxBackoff)
        return ceiling * Double.random(in: 0.5...1)
    }

    /// Whether a call may go to the provider now.
    private func admit() -> Bool {
        breaker.withLock { state in
            switch state {
            case .closed: return true
            case .trial: return false
            case .open(let until):
                guard ContinuousClock.now >= until else { return false }
                state = .trial
                return true
            }
        }
    }

    private func record(success: Bool) {
        breaker.withLock { state in
            if success {
                state = .closed(failures: 0)
                return
            }
            switch state {
            case .closed(let failures) where failures + 1 < policy.failureThreshold: state = .closed(failures: failures + 1)
            case .closed, .trial, .open: state = .open(until: .now + policy.openFor)
            }
        }
    }

    /// A call that ended without a verdict (cancelled): a trial it was lets the next call try.
    private func abandon() {
        breaker.withLock { state in
            if case .trial = state { state = .open(until: .now) }
        }
    }

    /// Whether the breaker lets calls through (for tests and health).
    public var isOpen: Bool {
        breaker.withLock { if case .closed = $0 { false } else { true } }
    }
}
