import Dispatch

/// Runs blocking work (fsync, thumbnailing, ffmpeg) on a Dispatch thread, so that it never
/// holds up the cooperative threads that serve requests.
enum BlockingWork {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
