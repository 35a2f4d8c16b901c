import Foundation

/// The source of "now" in Unix epoch milliseconds (API.md §1.3); tests may substitute their own.
public struct Clock: Sendable {
    private let now: @Sendable () -> Int64

    public init(now: @escaping @Sendable () -> Int64) {
        self.now = now
    }

    public var nowMillis: Int64 { now() }

    public static let system = Clock { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}

extension Duration {
    /// Whole milliseconds, as the server's timestamps count them.
    public var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
