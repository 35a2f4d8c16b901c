/// The "too slow" rule of one event-stream socket (4009): how much it has waiting in NIO for a
/// client that does not read, in frames and in bytes. Kept by `EventSocket` on the channel's
/// event loop.
///
/// Bytes, because frames differ by a thousand times: a message with 65,000 characters of `data`
/// is a frame of up to 393 KB (control characters escape to six bytes), and a file message is
/// rendered for each socket (its URL carries the recipient's own key), so 4,096 frames were up
/// to 1.6 GB per socket (issue 29.2). Frames too, because small ones cost NIO more than their
/// bytes (a pending write and a buffer each).
///
/// The bytes are an upper bound kept in O(1) per frame: every frame written adds its size, and
/// only when that passes `byteLimit` is the channel flushed and asked what it really still holds
/// (NIO's buffered bytes: what the kernel did not take). A client that reads is measured about
/// once per `byteLimit` bytes; one that does not is cut off at the limit.
public struct OutboundBacklog {
    private let frameLimit: Int
    private let byteLimit: Int
    /// Live frames written while the channel was over its high watermark.
    private var frames = 0
    /// At least the bytes NIO holds for the socket.
    private var bytes = 0

    public enum Verdict { case write, measure, tooSlow }

    public init(frameLimit: Int, byteLimit: Int) {
        self.frameLimit = frameLimit
        self.byteLimit = byteLimit
    }

    /// A frame of `size` bytes about to be written; `counted`: a live delivery (not the replay,
    /// which the frame rule leaves out; every frame's bytes count). `.measure`: flush, then
    /// decide with `measured`.
    public mutating func admit(_ size: Int, counted: Bool, writable: Bool) -> Verdict {
        if writable {
            frames = 0
        } else if counted {
            frames += 1
            if frames > frameLimit { return .tooSlow }
        }
        guard bytes + size <= byteLimit else { return .measure }
        bytes += size
        return .write
    }

    /// After a flush, `buffered` is what NIO still holds for the socket.
    public mutating func measured(buffered: Int, size: Int) -> Verdict {
        guard buffered + size <= byteLimit else { return .tooSlow }
        bytes = buffered + size
        return .write
    }
}
