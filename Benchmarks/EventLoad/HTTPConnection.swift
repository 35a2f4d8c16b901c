import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A keep-alive HTTP/1.1 connection to the server on 127.0.0.1 that pipelines its requests: the
/// paced sender must never wait for a response before its next send, or a slow response would
/// shift every send after it.
struct HTTPConnection: Sendable {
    struct Response: Sendable {
        let status: UInt
        let body: ByteBuffer
    }

    let channel: any Channel

    static func connect(port: Int, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> HTTPConnection {
        let channel = try await ClientBootstrap(group: group)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(PipelineHandler())
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return HTTPConnection(channel: channel)
    }

    /// Writes the request at once; the future completes with its response.
    func request(_ method: HTTPMethod, _ path: String, apiToken: String, json: String) -> EventLoopFuture<Response> {
        let body = ByteBuffer(string: json)
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "127.0.0.1")
        headers.add(name: "Api-Token", value: apiToken)
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        let promise = channel.eventLoop.makePromise(of: Response.self)
        let request = PendingRequest(
            head: HTTPRequestHead(version: .http1_1, method: method, uri: path, headers: headers), body: body, promise: promise)
        channel.writeAndFlush(request).whenFailure { promise.fail($0) }
        return promise.futureResult
    }

    func close() {
        channel.close(promise: nil)
    }
}

struct PendingRequest: Sendable {
    let head: HTTPRequestHead
    let body: ByteBuffer
    let promise: EventLoopPromise<HTTPConnection.Response>
}

/// Answers the requests' promises in order as their responses end.
private final class PipelineHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = PendingRequest
    typealias OutboundOut = HTTPClientRequestPart

    private var waiting = CircularBuffer<EventLoopPromise<HTTPConnection.Response>>()
    private var status: UInt = 0
    private var body = ByteBuffer()

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let request = unwrapOutboundIn(data)
        waiting.append(request.promise)
        context.write(wrapOutboundOut(.head(request.head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(request.body))), promise: nil)
        context.write(wrapOutboundOut(.end(nil)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            status = head.status.code
            body.clear()
        case .body(var part):
            body.writeBuffer(&part)
        case .end:
            waiting.popFirst()?.succeed(.init(status: status, body: body))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failAll(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(ChannelError.eof)
        context.fireChannelInactive()
    }

    private func failAll(_ error: any Error) {
        while let promise = waiting.popFirst() { promise.fail(error) }
    }
}

/// Hands out a list's items to concurrent workers, each once.
final class WorkQueue<Item: Sendable>: Sendable {
    private let items: [Item]
    private let position = Atomic<Int>(0)

    init(_ items: [Item]) {
        self.items = items
    }

    func next() -> Item? {
        let index = position.add(1, ordering: .relaxed).oldValue
        return index < items.count ? items[index] : nil
    }
}
