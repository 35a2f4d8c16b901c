import NIOCore
import NIOHTTP1

/// Answers what NIO's HTTP decoder cannot parse (both `Content-Length` and `Transfer-Encoding`,
/// two lengths, an unknown method, no version, a NUL in the target, a TLS hello on the plain
/// port) with 400, and a header over the decoder's 80 KiB with 431, in the error body, and closes
/// the connection once the answer is out.
///
/// Why not NIO's `HTTPServerProtocolErrorHandler`, and why anything at all: Hummingbird answers a
/// parse error only once a request has reached its connection task, and that task exists only
/// after the first request's head was decoded (it is made when NIO's upgrade handler decides
/// against an upgrade). A first request that fails to parse therefore got no answer, and the
/// decoder, in its error state from then on, left the connection open until the header deadline.
/// NIO's handler answers an empty 400 whatever the error, and writes it at once even while an
/// earlier pipelined request's response is still being made. This one sits right behind the
/// decoder and answers when the connection owes no other response (after the pending ones, in
/// order). An error inside a request's own body is left to that request's reader, which answers
/// it.
final class MalformedRequestResponder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "parley-malformed-request"

    /// A request's head arrived and its end has not.
    private var isReadingRequest = false
    /// Requests whose response has not ended.
    private var responsesOwed = 0
    /// The refusal to send once the responses owed are out.
    private var pending: ProtocolFault?
    private var hasAnswered = false
    private let answers: ProtocolFaultAnswers

    init(answers: ProtocolFaultAnswers) {
        self.answers = answers
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            isReadingRequest = true
            responsesOwed += 1
        case .body: break
        case .end: isReadingRequest = false
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
        guard case .end = unwrapOutboundIn(data) else { return }
        responsesOwed = max(0, responsesOwed - 1)
        if responsesOwed == 0, let pending {
            self.pending = nil
            answer(pending, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let refusal = Self.refusal(for: error) else { return context.fireErrorCaught(error) }
        // The decoder repeats its error for every read after the first: one answer is enough.
        if hasAnswered || pending != nil { return }
        if isReadingRequest { return context.fireErrorCaught(error) }
        if responsesOwed > 0 {
            pending = refusal
        } else {
            answer(refusal, context: context)
        }
    }

    /// The answer to a parse error of the decoder, or nil for any other error.
    static func refusal(for error: any Error) -> ProtocolFault? {
        switch error {
        case HTTPParserError.headerOverflow: .headerTooLarge
        case is HTTPParserError: .malformedRequest
        case ByteToMessageDecoderError.dataReceivedInErrorState(let first, _): refusal(for: first)
        default: nil
        }
    }

    private func answer(_ refusal: ProtocolFault, context: ChannelHandlerContext) {
        hasAnswered = true
        let answer = answers.answer(refusal)
        let body = answer.body
        let headers = HTTPHeaders([
            ("Content-Type", answer.contentType), ("X-Content-Type-Options", "nosniff"), ("Content-Length", String(body.readableBytes)),
            ("Connection", "close")
        ])
        let status = HTTPResponseStatus(statusCode: answer.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}

/// What a connection sent that is not HTTP/1.1 the decoder can read.
public enum ProtocolFault: Sendable {
    /// A request header larger than the decoder reads (431, RFC 6585 §5).
    case headerTooLarge
    /// Anything else the decoder refuses (400).
    case malformedRequest
}

/// The server's own answer to each `ProtocolFault`, in its error format.
public struct ProtocolFaultAnswers: Sendable {
    public struct Answer: Sendable {
        public var status: Int
        public var contentType: String
        public var body: ByteBuffer

        public init(status: Int, contentType: String, body: ByteBuffer) {
            self.status = status
            self.contentType = contentType
            self.body = body
        }
    }

    public let answer: @Sendable (ProtocolFault) -> Answer

    public init(_ answer: @escaping @Sendable (ProtocolFault) -> Answer) {
        self.answer = answer
    }
}
