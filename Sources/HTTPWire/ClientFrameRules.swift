import NIOCore
import NIOWebSocket

/// What RFC 6455 demands of a client's frames beyond what NIO's frame decoder checks (lengths,
/// fragmented or long control frames): no RSV bits, since the stream negotiates no extension
/// (§5.2); no reserved opcode (§5.2); a continuation only inside a fragmented message, and no new
/// message before it ends (§5.4); and in a close frame, a code that may be sent and a UTF-8 reason
/// (§5.5.1, §7.4). A frame that breaks one fails the connection with 1002 (1007 for the reason)
/// rather than being skipped, so a broken client learns of it.
public struct ClientFrameRules {
    /// A fragmented message (text or binary) has begun and not ended.
    private var isInMessage = false

    public init() {}

    /// Why `frame` breaks the protocol, or nil when it does not.
    public mutating func violation(_ frame: WebSocketFrame) -> String? {
        if frame.rsv1 || frame.rsv2 || frame.rsv3 { return "RSV bits without an extension" }
        switch frame.opcode {
        case .continuation:
            guard isInMessage else { return "A continuation frame outside a fragmented message" }
            isInMessage = !frame.fin
        case .text, .binary:
            guard !isInMessage else { return "A new message inside a fragmented one" }
            isInMessage = !frame.fin
        case .connectionClose, .ping, .pong:
            break
        default:
            return "A reserved opcode"
        }
        return nil
    }

    /// The code to answer a client's close frame with: its own when it is one a peer may send,
    /// none for a close without a code, 1002 for a code that may not be sent or a one-byte payload,
    /// 1007 for a reason that is not UTF-8.
    public static func closeAnswer(_ payload: ByteBuffer) -> UInt16? {
        var payload = payload
        guard payload.readableBytes > 0 else { return nil }
        guard let code = payload.readInteger(as: UInt16.self), mayBeSent(code) else { return WebSocketErrorCode.protocolError.code }
        guard String(validating: payload.readableBytesView, as: UTF8.self) != nil else {
            return WebSocketErrorCode.dataInconsistentWithMessage.code
        }
        return code
    }

    /// RFC 6455 §7.4: 1004–1006 and 1015 are never sent, below 1000 and 1016–2999 are not
    /// assigned to anyone, 3000–4999 belong to libraries and applications.
    private static func mayBeSent(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}

extension WebSocketErrorCode {
    /// The code as sent in a close frame.
    public var code: UInt16 {
        var buffer = ByteBuffer()
        buffer.write(webSocketErrorCode: self)
        return buffer.readInteger()!
    }
}
