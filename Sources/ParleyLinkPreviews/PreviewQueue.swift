import Logging
import ParleyCore
import ServiceLifecycle
import Synchronization

/// Link previews run here, after their message commits, fairly between users (issue 29): a few
/// workers take previews in turns of their senders (`FairQueue`), a sender has at most a few
/// running and a few more waiting, and previews past that are dropped (the message just has no
/// `og_tag`). One user posting many slow links used to hold every fetch while an unrelated
/// user's preview waited seconds, and half of that user's never came.
///
/// A lifecycle service: previews still waiting at shutdown are not made (a preview is a
/// courtesy; nothing another instance needs is held here).
public final class PreviewQueue: Service, Sendable {
    public typealias Work = @Sendable () async throws -> Void

    private let queue: Mutex<FairQueue<Work>>
    private let logger: Logger
    /// Woken when a preview is queued or one ends: a turn may have come free.
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    /// `workers` previews run at once, at most `runningPerUser` of one user, who may have at most
    /// `heldPerUser` waiting or running.
    public init(workers: Int, runningPerUser: Int, heldPerUser: Int, logger: Logger) {
        queue = Mutex(FairQueue(.init(capacity: max(1, workers), runningPerUser: runningPerUser, heldPerUser: heldPerUser)))
        self.logger = logger
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `work` for `user`; false (and dropped) when the user already has as many as allowed.
    @discardableResult
    public func submit(for user: String, _ work: @escaping Work) -> Bool {
        guard queue.withLock({ $0.push(work, user: user) }) != nil else {
            PreviewMetrics.dropped.increment()
            logger.debug("link preview dropped: the sender has too many waiting", metadata: ["user_id": "\(user)"])
            return false
        }
        wake.yield()
        return true
    }

    /// One loop hands out turns as they come free and runs each as a child task: at most
    /// `workers` at once. It sleeps until a preview is queued or one ends, so an idle queue
    /// costs nothing.
    public func run() async throws {
        PreviewMetrics.prepare()
        try? await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                // Ends when the service is cancelled.
                for await _ in self.wakes {
                    while let turn = self.queue.withLock({ $0.next() }) {
                        group.addTask {
                            do {
                                try await turn.item()
                            } catch {
                                self.logger.warning("storing a link preview failed", metadata: ["error": "\(error)"])
                            }
                            self.queue.withLock { $0.finish(turn) }
                            self.wake.yield()
                        }
                    }
                }
            }
        }
    }
}
