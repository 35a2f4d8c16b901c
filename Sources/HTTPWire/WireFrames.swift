import NIOCore

/// Server-to-client WebSocket text frames encoded once (RFC 6455 §5.2: FIN, opcode, unmasked
/// length) and written as bytes.
///
/// Hand-written because an event to a channel of a thousand members is the same frame a thousand
/// times: NIO's `WebSocketFrameEncoder` encodes each write again, with a header buffer of its own
/// (the shared payload has no room to prepend one), and its pipeline trip was about a sixth of
/// the server's CPU per delivered frame (scripts/bench/events, perf).
public enum WireFrames {
    public static func text(_ payload: ByteBuffer) -> ByteBuffer {
        let length = payload.readableBytes
        var frame = ByteBuffer()
        frame.reserveCapacity(length + 10)
        frame.writeInteger(UInt8(0x81))  // FIN, text
        if length < 126 {
            frame.writeInteger(UInt8(length))
        } else if length <= Int(UInt16.max) {
            frame.writeInteger(UInt8(126))
            frame.writeInteger(UInt16(length))
        } else {
            frame.writeInteger(UInt8(127))
            frame.writeInteger(UInt64(length))
        }
        var payload = payload
        frame.writeBuffer(&payload)
        return frame
    }

    /// An empty ping (opcode 0x9).
    public static let ping = ByteBuffer(bytes: [0x89, 0x00])

    /// A close frame (opcode 0x8) with its code and reason (cut to the 123 bytes a control
    /// frame has room for), or an empty one when there is no code.
    public static func close(_ code: UInt16?, reason: String = "") -> ByteBuffer {
        guard let code else { return ByteBuffer(bytes: [0x88, 0x00]) }
        var reason = Array(reason.utf8.prefix(123))
        // Not in the middle of a character.
        while String(validating: reason, as: UTF8.self) == nil { reason.removeLast() }
        var frame = ByteBuffer(bytes: [0x88, UInt8(2 + reason.count)])
        frame.writeInteger(code)
        frame.writeBytes(reason)
        return frame
    }

    /// A pong (opcode 0xA) answering a ping's payload (at most 125 bytes, as the ping's).
    public static func pong(_ payload: ByteBuffer) -> ByteBuffer {
        var frame = ByteBuffer(bytes: [0x8A, UInt8(min(payload.readableBytes, 125))])
        frame.writeImmutableBuffer(payload.getSlice(at: payload.readerIndex, length: min(payload.readableBytes, 125))!)
        return frame
    }
}

/// Sits first in a WebSocket connection's pipeline, next to the socket: writes encoded frames
/// (`WireFrames`) there, past the WebSocket encoder and the handlers after it, and notes when the
/// peer last sent anything (any bytes: a pong, a frame, a close). Used on the channel's event loop
/// only, where NIO confines a handler and its context.
public final class WireWriter: ChannelDuplexHandler, @unchecked Sendable {
    public typealias InboundIn = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private var context: ChannelHandlerContext?
    /// When the peer last sent something.
    public private(set) var lastHeard = NIODeadline.now()

    public init() {}

    public func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastHeard = .now()
        context.fireChannelRead(data)
    }

    /// Silence counts from here: the stream has just opened, and pings start now (opening may
    /// take a while on a busy server, and a peer cannot answer pings before the first).
    public func startListening() {
        lastHeard = .now()
    }

    /// Frames written by the pipeline's other writers (close frames) interleave at frame
    /// boundaries, in the order of the calls.
    public func writeAndFlush(_ frame: ByteBuffer) {
        context?.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    public func write(_ frame: ByteBuffer) {
        context?.write(wrapOutboundOut(frame), promise: nil)
    }

    public func flush() {
        context?.flush()
    }
}
