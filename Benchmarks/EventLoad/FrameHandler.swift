import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// One socket's frames, on its event loop: the hello announces it, message events are counted,
/// pings answered, and a close ends it.
final class FrameHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let set: SocketSet
    let announce: AsyncStream<Bool>.Continuation
    let announced = Atomic<Bool>(false)
    /// The close code the socket ended with.
    let ended: EventLoopPromise<String>
    /// Touched on the socket's event loop only.
    private let receiver: Mutex<Receiver>
    private let closeCode = Mutex<String>("none")

    init(set: SocketSet, messageCount: Int, announce: AsyncStream<Bool>.Continuation) {
        self.set = set
        self.announce = announce
        self.receiver = Mutex(Receiver(messageCount: messageCount))
        self.ended = MultiThreadedEventLoopGroup.singleton.any().makePromise()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            guard announced.load(ordering: .relaxed) else {
                guard frame.data.readableBytesView.starts(with: SocketSet.helloPrefix) else { return context.close(promise: nil) }
                announced.store(true, ordering: .relaxed)
                announce.yield(true)
                return
            }
            let receipt = receiver.withLock { $0.absorb(frame.data, at: monotonicNanos()) }
            if receipt == .newBenchmarkMessage { set.delivered.add(1, ordering: .relaxed) }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readWebSocketErrorCode().map { "\($0)" } ?? "none"
            closeCode.withLock { $0 = code }
            // Echo it (RFC 6455 §5.5.1) unless this side asked first; the server then ends the connection.
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: frame.unmaskedData)),
                promise: nil)
        default: break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        set.add(receiver.withLock { $0 })
        ended.succeed(closeCode.withLock { $0 })
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
