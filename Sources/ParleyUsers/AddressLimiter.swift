import ParleyCore
import ParleyStore
import Synchronization

/// Requests per client address (issue 37), shared by every instance through the database
/// (`AddressLimitRepository`): failed authentications, so that nobody guesses tokens from one
/// address faster than the limit, and uploads, the costliest requests a client can repeat.
///
/// Only the requests of those kinds ask the database. Once a count uses up an address's limit,
/// this instance remembers until when, and refuses that address's requests of that kind without
/// asking again: uploads before their bodies are read, failed authentications once they failed
/// (`AddressLimitMiddleware`: requests with valid credentials pass). Another instance learns it
/// at that address's next counted request there (one more per other instance).
public final class AddressLimiter: Sendable {
    public enum Kind: String, Sendable {
        case authFailure = "auth_failure"
        case upload
    }

    let store: Store
    let clock: Clock
    public let settings: AddressLimitSettings
    /// Until when (ms) each refused kind and address is refused here.
    private let refusedUntil = Mutex<[String: Int64]>([:])
    static let rememberedAtMost = 10_000

    public init(store: Store, clock: Clock, settings: AddressLimitSettings) {
        self.store = store
        self.clock = clock
        self.settings = settings
    }

    /// Seconds until `address` may make a request of `kind` again, when this instance knows it
    /// is refused now; nil otherwise.
    public func refusal(_ kind: Kind, _ address: String) -> Int? {
        let now = clock.nowMillis
        guard let until = refusedUntil.withLock({ $0[kind.rawValue + " " + address] }), until > now else { return nil }
        return Self.seconds(until - now)
    }

    /// Counts a request of `kind` from `address`: nil when admitted, else the seconds to wait.
    /// When the limit is used up, until when is remembered for `refusal`. A limit of 0 counts
    /// nothing; a database that cannot be asked admits (the limit guards against abuse, it must
    /// not take the service down with it).
    public func count(_ kind: Kind, _ address: String) async -> Int? {
        guard let rate = settings.rate(kind) else { return nil }
        let now = clock.nowMillis
        guard
            let (admitted, nextIn) = try? await store.read({
                try $0.addressLimits.admit(kind.rawValue, address, now: now, interval: rate.interval, burst: rate.burst)
            })
        else { return nil }
        if nextIn > 0 { remember(kind.rawValue + " " + address, until: now + nextIn, now: now) }
        return admitted ? nil : Self.seconds(nextIn)
    }

    private func remember(_ key: String, until: Int64, now: Int64) {
        refusedUntil.withLock { refused in
            if refused.count >= Self.rememberedAtMost { refused = refused.filter { $0.value > now } }
            // Still full of live refusals (addresses by the thousand): forget them; the database
            // still refuses each at its next counted request.
            if refused.count >= Self.rememberedAtMost { refused.removeAll() }
            refused[key] = until
        }
    }

    static func seconds(_ millis: Int64) -> Int { Int(max(1, (millis + 999) / 1000)) }
}

/// `PARLEY_AUTH_FAILURES_PER_MINUTE` and `PARLEY_UPLOADS_PER_MINUTE`: each a rate with a burst of
/// the same size (that many at once, then one every minute / count), 0 for no limit.
public struct AddressLimitSettings: Sendable {
    public var authFailuresPerMinute = 30
    public var uploadsPerMinute = 60
    /// The span a limit counts over, a minute but in the tests.
    public var window: Int64 = 60_000

    public init() {}

    struct Rate {
        /// One request's share of the window (ms), and how far ahead of now the count may run.
        let interval: Int64
        let burst: Int64
    }

    func rate(_ kind: AddressLimiter.Kind) -> Rate? {
        let count = Int64(kind == .authFailure ? authFailuresPerMinute : uploadsPerMinute)
        guard count > 0 else { return nil }
        return Rate(interval: max(1, window / count), burst: window)
    }
}
