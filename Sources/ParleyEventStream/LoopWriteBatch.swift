import HTTPWire
import NIOCore
import Synchronization

/// The event-stream frames bound for the sockets of one event loop, written by one task on that
/// loop rather than a task per frame, and flushed once per socket per batch.
///
/// An event to a channel of a thousand members is a thousand writes. Queued as one task each,
/// they cost a closure and a queue round trip apiece; and when the loop falls behind (a burst of
/// messages), every frame was still its own write system call. Batched, a socket with several
/// frames waiting gets them in one `writev`: the busier the server, the fewer calls per frame, and
/// no frame waits for a batch to fill.
final class LoopWriteBatch: Sendable {
    private let eventLoop: any EventLoop
    private let pending = Mutex(Pending())

    private struct Pending {
        var frames: [(socket: EventSocket, frame: ByteBuffer, counted: Bool)] = []
        var drainScheduled = false
    }

    private init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// The batch of `eventLoop`.
    static func of(_ eventLoop: any EventLoop) -> LoopWriteBatch {
        batches.of(eventLoop)
    }

    private static let batches = PerEventLoop { LoopWriteBatch($0) }

    /// Queues a frame; frames of one socket go out in the order queued.
    func enqueue(_ frame: ByteBuffer, to socket: EventSocket, counted: Bool) {
        let schedule = pending.withLock { pending in
            pending.frames.append((socket, frame, counted))
            defer { pending.drainScheduled = true }
            return !pending.drainScheduled
        }
        if schedule { eventLoop.execute { self.drain() } }
    }

    private func drain() {
        let frames = pending.withLock { pending in
            pending.drainScheduled = false
            defer { pending.frames = [] }
            return pending.frames
        }
        for item in frames { item.socket.writeWithoutFlush(item.frame, counted: item.counted) }
        for item in frames { item.socket.flushIfWritten() }
    }
}
