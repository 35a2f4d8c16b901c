import CurlHTTP
import Foundation
import Logging
import OwnedTasks
import ParleyTranslation
import Testing

/// Each provider adapter against a local server speaking that provider's protocol, through the
/// real libcurl path: the request shape and auth, batching, retries, quota errors, timeouts,
/// the circuit breaker, and the protected parts of a message.
@Suite struct TranslationProviderTests {
    /// Owns the translations these tests start by hand.
    static let tasks = TaskOwner(logger: Logger(label: "translation-tests"))

    static let client = CurlClient()

    static func adapter(_ kind: FakeTranslationProvider.Kind, _ url: String, key: String = "test-key") -> any Translator {
        switch kind {
        case .google: GoogleTranslator(client: client, baseURL: url, key: key)
        case .deepl: DeepLTranslator(client: client, baseURL: url, key: key)
        case .libretranslate: LibreTranslator(client: client, baseURL: url, key: key)
        }
    }

    static func quickly(_ translator: any Translator, threshold: Int = 5, openFor: Duration = .seconds(30)) -> ReliableTranslator {
        var policy = ReliableTranslator.Policy()
        policy.firstBackoff = .milliseconds(20)
        policy.failureThreshold = threshold
        policy.openFor = openFor
        return ReliableTranslator(translator, policy: policy)
    }

    static var soon: ContinuousClock.Instant { .now + .seconds(5) }

    @Test(arguments: [FakeTranslationProvider.Kind.google, .deepl, .libretranslate])
    func eachProviderTranslatesABatchWithItsOwnRequestShape(kind: FakeTranslationProvider.Kind) async throws {
        let provider = FakeTranslationProvider(kind)
        try await provider.run { url in
            let translator = Self.adapter(kind, url)
            let texts = ["Hello", "How are \"you\" & me?", "안녕"]
            let translated = try await translator.translate(texts, to: "es", timeout: .seconds(5))
            let target = kind == .deepl ? "ES" : "es"
            #expect(translated == texts.map { "[\(target)] \($0)" })
            let request = try #require(provider.received.first)
            #expect(provider.received.count == 1)
            #expect(request.texts == texts)
            // The key travels in a header (DeepL, Google) or the body (LibreTranslate), never the URL.
            #expect(!request.query.contains("test-key"))
            switch kind {
            case .google: #expect(request.headers["x-goog-api-key"] == "test-key")
            case .deepl: #expect(request.headers["authorization"] == "DeepL-Auth-Key test-key")
            case .libretranslate: #expect(request.headers["authorization"] == nil)
            }
        }
    }

    @Test func deepLGetsItsOwnLanguageCodesAndAWrongKeyIsRefusedNotRetried() async throws {
        let provider = FakeTranslationProvider(.deepl)
        try await provider.run { url in
            let translator = Self.adapter(.deepl, url)
            _ = try await translator.translate(["hi"], to: "zh-CN", timeout: .seconds(5))
            _ = try await translator.translate(["hi"], to: "zh-TW", timeout: .seconds(5))
            _ = try await translator.translate(["hi"], to: "en", timeout: .seconds(5))
            #expect(provider.received.map(\.target) == ["ZH-HANS", "ZH-HANT", "EN-US"])
            #expect(!translator.supports("hi"))
            let wrong = Self.quickly(Self.adapter(.deepl, url, key: "wrong"))
            await #expect(throws: TranslationError.rejected(status: 403, message: "Wrong auth key")) {
                try await wrong.translate(["hi"], to: "es", deadline: Self.soon)
            }
            #expect(provider.received.count == 4)
        }
    }

    @Test func largeBatchesAreSplitAtTheProvidersLimit() async throws {
        for (kind, limit) in [(FakeTranslationProvider.Kind.google, 128), (.deepl, 50), (.libretranslate, 25)] {
            let provider = FakeTranslationProvider(kind)
            try await provider.run { url in
                let translator = MessageTranslator(Self.quickly(Self.adapter(kind, url)), tasks: Self.tasks)
                // 130 words between mentions make 130 pieces.
                let text = (0..<130).map { "word\($0) @u\($0)" }.joined(separator: " ")
                let outcome = await translator.start(text, into: ["ko"], deadline: Self.soon).all()
                let translated = try #require(try outcome["ko"]?.get())
                let target = kind == .deepl ? "KO" : "ko"
                #expect(translated.hasPrefix("[\(target)] word0 @u0 [\(target)] word1 @u1"))
                #expect(provider.received.map(\.texts.count) == stride(from: 0, to: 130, by: limit).map { min(limit, 130 - $0) })
            }
        }
    }

    @Test func aRateLimitIsRetriedAfterRetryAfterAndAQuotaErrorIsNot() async throws {
        let provider = FakeTranslationProvider(.google)
        try await provider.run { url in
            let translator = Self.quickly(Self.adapter(.google, url))
            provider.script([
                .fail(status: 429, body: #"{"error":{"code":429,"message":"Too many requests"}}"#, headers: ["Retry-After": "1"]),
                .fail(status: 503, body: #"{"error":{"code":503,"message":"Backend Error"}}"#)
            ])
            let started = ContinuousClock.now
            let translated = try await translator.translate(["hi"], to: "de", deadline: .now + .seconds(10))
            #expect(translated == ["[de] hi"])
            #expect(ContinuousClock.now - started >= .seconds(1), "Retry-After was honoured")
            #expect(provider.received.count == 3)
            // A spent quota (Google says so with a 403 and a reason) is not tried again.
            provider.script([
                .fail(
                    status: 403,
                    body: #"{"error":{"code":403,"message":"Daily Limit Exceeded","errors":[{"reason":"dailyLimitExceeded"}]}}"#)
            ])
            await #expect(throws: TranslationError.quotaExceeded("Daily Limit Exceeded")) {
                try await translator.translate(["hi"], to: "de", deadline: Self.soon)
            }
            #expect(provider.received.count == 4)
        }
        let deepl = FakeTranslationProvider(.deepl)
        try await deepl.run { url in
            deepl.script([.fail(status: 456, body: #"{"message":"Quota exceeded"}"#)])
            await #expect(throws: TranslationError.quotaExceeded("Quota exceeded")) {
                try await Self.quickly(Self.adapter(.deepl, url)).translate(["hi"], to: "de", deadline: Self.soon)
            }
            #expect(deepl.received.count == 1)
        }
    }

    @Test func aSlowProviderTimesOutAtTheDeadline() async throws {
        let provider = FakeTranslationProvider(.libretranslate)
        try await provider.run { url in
            provider.script([.delay(.seconds(8)), .delay(.seconds(8)), .delay(.seconds(8))])
            let started = ContinuousClock.now
            do {
                _ = try await Self.quickly(Self.adapter(.libretranslate, url)).translate(
                    ["hi"], to: "fr", deadline: .now + .milliseconds(600))
                Issue.record("a slow provider answered in time")
            } catch let error as TranslationError {
                #expect(error.description.contains("unavailable"), "\(error)")
            }
            // Far less than one slow answer (with room for a busy machine).
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    @Test func theBreakerOpensOnAFailingProviderAndATrialClosesIt() async throws {
        let provider = FakeTranslationProvider(.google)
        try await provider.run { url in
            let translator = Self.quickly(Self.adapter(.google, url), threshold: 2, openFor: .seconds(3))
            var policyFailures = [FakeTranslationProvider.Step]()
            for _ in 0..<6 { policyFailures.append(.fail(status: 500, body: #"{"error":{"code":500,"message":"down"}}"#)) }
            provider.script(policyFailures)
            for _ in 0..<2 {
                await #expect(throws: TranslationError.self) { try await translator.translate(["hi"], to: "it", deadline: Self.soon) }
            }
            let reached = provider.received.count
            #expect(translator.isOpen)
            // Open: answered at once, without reaching the provider.
            await #expect(throws: TranslationError.notAvailableNow) {
                try await translator.translate(["hi"], to: "it", deadline: Self.soon)
            }
            #expect(provider.received.count == reached)
            // After the pause one trial goes through; the provider is fine again, so it closes.
            provider.script([])
            try await Task.sleep(for: .milliseconds(3200))
            let remaining = 6 - reached
            if remaining > 0 { _ = try? await translator.translate(["hi"], to: "it", deadline: Self.soon) }
            try await Task.sleep(for: .milliseconds(3200))
            let translated = try await translator.translate(["hi"], to: "it", deadline: Self.soon)
            #expect(translated == ["[it] hi"])
            #expect(!translator.isOpen)
        }
    }

    @Test func mentionsURLsAndCodeNeverReachTheProviderAndComeBackUnchanged() async throws {
        let provider = FakeTranslationProvider(.deepl)
        try await provider.run { url in
            let translator = MessageTranslator(Self.quickly(Self.adapter(.deepl, url)), tasks: Self.tasks)
            let text = "Hi @{bob} and @alice.smith, see https://example.com/a?b=c&d=e (or `let x = \"y\"`)\n```\nrm -rf /\n```\nthanks!"
            let outcome = await translator.start(text, into: ["ja"], deadline: Self.soon).all()
            let translated = try #require(try outcome["ja"]?.get())
            #expect(
                translated
                    == "[JA] Hi @{bob} [JA] and @alice.smith[JA] , see https://example.com/a?b=c&d=e [JA] (or `let x = \"y\"`)\n```\nrm -rf /\n```\n[JA] thanks!"
            )
            let sent = provider.received.flatMap(\.texts)
            #expect(sent == ["Hi", "and", ", see", "(or", "thanks!"])
            // A message of nothing but protected parts needs no provider.
            let before = provider.received.count
            let bare = await translator.start("https://example.com @{bob}", into: ["ja"], deadline: Self.soon).all()
            #expect(try bare["ja"]?.get() == "https://example.com @{bob}")
            #expect(provider.received.count == before)
        }
    }

    @Test func languageCodesAreCheckedAndMadeCanonical() throws {
        let translator = MessageTranslator(
            ReliableTranslator(DeepLTranslator(client: Self.client, baseURL: "http://127.0.0.1:9", key: "k")), tasks: Self.tasks)
        #expect(try translator.languages(["ES", "zh-cn", "es"]) == ["es", "zh-CN"])
        #expect(throws: (any Error).self) { try translator.languages(["klingon"]) }
        #expect(throws: (any Error).self) { try translator.languages(["hi"]) }  // Hindi: not a DeepL language
        #expect(throws: (any Error).self) { try translator.languages(["de", "fr", "it", "es", "ja", "ko"]) }
    }
}
