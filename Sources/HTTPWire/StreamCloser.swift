import NIOCore

/// The closing handshake of one event-stream socket (RFC 6455 §7.1): a close frame goes out
/// after what was written so far and nothing follows it; the connection ends when the client
/// answers with its own close frame, or after a grace period if it does not.
///
/// Confined to the channel's event loop, like the handlers that use it.
public final class StreamCloser: @unchecked Sendable {
    private let channel: any Channel
    private let wire: WireWriter
    /// A close frame is out (ours, or our answer to the client's): nothing may follow it.
    public private(set) var isClosing = false

    /// How long a client gets to answer a close frame.
    public static let answerTime = TimeAmount.seconds(5)

    public init(channel: any Channel, wire: WireWriter) {
        self.channel = channel
        self.wire = wire
    }

    /// Sends the close frame, and closes the connection if the client has not answered
    /// `within` (at once for `.zero`: a peer that is gone).
    public func close(_ code: UInt16, reason: String, within grace: TimeAmount = answerTime) {
        guard !isClosing else { return }
        isClosing = true
        wire.writeAndFlush(WireFrames.close(code, reason: reason))
        if grace <= .zero {
            channel.close(promise: nil)
        } else {
            channel.eventLoop.scheduleTask(in: grace) { [channel] in channel.close(promise: nil) }
        }
    }

    /// The client's close frame: it answers ours, or it is answered (with its own code, or 1002
    /// for a code it may not send: `ClientFrameRules.closeAnswer`); either way the connection ends
    /// (the server closes TCP first).
    public func peerClosed(answer: UInt16?) {
        if !isClosing {
            isClosing = true
            wire.writeAndFlush(WireFrames.close(answer))
        }
        channel.close(promise: nil)
    }
}
