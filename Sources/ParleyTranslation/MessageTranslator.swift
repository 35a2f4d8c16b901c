import OwnedTasks
import ParleyCore
import Synchronization

/// Translates message texts (API.md §9): the languages checked, the protected parts kept out of
/// the provider's reach, the pieces batched per language, every language at once.
public final class MessageTranslator: Sendable {
    /// nil when no provider is configured (`PARLEY_TRANSLATION_PROVIDER=none`).
    public let translator: ReliableTranslator?
    /// Runs each language's translation (callers wait for them as long as they choose).
    let tasks: TaskOwner

    /// Built once, by the container, after the metrics backend is bootstrapped: the translation
    /// counters exist from here on, also with no provider configured.
    public init(_ translator: ReliableTranslator?, tasks: TaskOwner) {
        self.translator = translator
        self.tasks = tasks
        TranslationMetrics.prepare()
    }

    /// The requested languages in canonical form, without repeats; 400111 for an unknown code,
    /// one the provider lacks, or more than `Languages.maxPerRequest`.
    public func languages(_ codes: [String], field: String = "target_langs") throws -> [String] {
        var languages: [String] = []
        for code in codes {
            guard let language = Languages.canonical(code), translator?.provider.supports(language) ?? true else {
                throw ParleyError.invalidValue(field, "\"\(code)\" is not a language that can be translated into")
            }
            if !languages.contains(language) { languages.append(language) }
        }
        guard languages.count <= Languages.maxPerRequest else {
            throw ParleyError.invalidValue(field, "at most \(Languages.maxPerRequest) languages")
        }
        return languages
    }

    /// The languages among `languages` the provider translates into (a message translated
    /// before the provider changed may hold others).
    public func supported(_ languages: [String]) -> [String] {
        languages.filter { translator?.provider.supports($0) ?? true }
    }

    /// Starts translating `text` into every language, each done by `deadline` or failed.
    public func start(_ text: String, into languages: [String], deadline: ContinuousClock.Instant) -> TranslationJob {
        let job = TranslationJob(languages: languages, tasks: tasks)
        let protected = ProtectedText(text)
        for language in languages {
            tasks.spawn("translating into \(language)") { [translator] in
                do {
                    guard let translator else { throw TranslationError.notAvailableNow }
                    let pieces = protected.pieces
                    var translated: [String] = []
                    // Nothing to translate (a link, a mention): the text is its own translation.
                    for start in stride(from: 0, to: pieces.count, by: translator.provider.maxBatch) {
                        let batch = Array(pieces[start..<min(start + translator.provider.maxBatch, pieces.count)])
                        translated += try await translator.translate(batch, to: language, deadline: deadline)
                    }
                    job.complete(language, .success(protected.restored(translated)))
                } catch let error as TranslationError {
                    job.complete(language, .failure(error))
                } catch {
                    job.complete(language, .failure(.unavailable("\(error)")))
                }
            }
        }
        return job
    }
}

/// The translations of one text under way: callers wait for all of them, or for those done
/// within a limit (the rest go on).
public final class TranslationJob: Sendable {
    private struct State {
        var results: [String: Result<String, TranslationError>] = [:]
        var open: Int
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    public let languages: [String]
    private let state: Mutex<State>
    /// Runs the timers of waits with a limit.
    private let tasks: TaskOwner

    init(languages: [String], tasks: TaskOwner) {
        self.languages = languages
        self.state = Mutex(State(open: languages.count))
        self.tasks = tasks
    }

    fileprivate func complete(_ language: String, _ result: Result<String, TranslationError>) {
        let waiters = state.withLock { state in
            state.results[language] = result
            state.open -= 1
            guard state.open == 0 else { return [CheckedContinuation<Void, Never>]() }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Every language's outcome.
    public func all() async -> [String: Result<String, TranslationError>] {
        await wait(limit: nil)
        return state.withLock { $0.results }
    }

    /// The translations done within `limit` (failed ones left out).
    public func finished(within limit: Duration) async -> [String: String] {
        await wait(limit: limit)
        return state.withLock { $0.results.compactMapValues { try? $0.get() } }
    }

    /// Until every language is done, or `limit` has passed.
    private func wait(limit: Duration?) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let id: Int? = state.withLock { state in
                guard state.open > 0 else { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let id else { return continuation.resume() }
            guard let limit else { return }
            tasks.spawn("a translation wait's limit") {
                try? await Task.sleep(for: limit)
                self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
            }
        }
    }
}
