import Foundation
import HTTPTypes
import HTTPWire
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ParleyCore

/// The one place where failures become the error body of API.md §1.5.
///
/// `ParleyError`s are answered as they are; Hummingbird's own errors (unknown route, body too
/// large, bad path parameter) are translated; anything else is logged with the request id and
/// answered 500 without details.
public struct ErrorResponses: Sendable {
    public typealias Context = ParleyRequestContext

    public init() {}

    /// The response for anything a handler or middleware threw.
    public func response(for error: any Error, request: Request, context: Context) -> Response {
        if let error = error as? ParleyError {
            return Self.response(for: error)
        }
        if let error = error as? HTTPError {
            return Self.response(for: translate(error, context: context))
        }
        if let error = error as? any HTTPResponseError, error.status == .contentTooLarge {
            return Self.response(for: .bodyTooLarge(max: context.maxUploadSize))
        }
        if let error = error as? HTTPParserError {
            // The client's fault, not the server's: a malformed chunked body, or a connection
            // that ended before the body did (then nobody reads this answer).
            let reason = error == .invalidEOFState ? "the client closed the connection before the end of the body" : "\(error)"
            context.logger.debug("malformed request", metadata: ["reason": "\(reason)"])
            return Self.response(for: .malformedBody)
        }
        context.logger.error("internal error", metadata: ["error": "\(String(reflecting: error))"])
        return Self.response(for: .internalError)
    }

    private func translate(_ error: HTTPError, context: Context) -> ParleyError {
        switch error.status {
        case .notFound where context.coreContext.endpointPath.value == "NotFound":
            return .routeNotFound
        case .contentTooLarge:
            return .bodyTooLarge(max: context.maxUploadSize)
        case .unauthorized:
            return .invalidApiToken
        case .notFound:
            return .notFound(error.body ?? "Not found.")
        default:
            if error.status.code >= 500 {
                context.logger.error("internal error", metadata: ["error": "\(error)"])
                return .internalError
            }
            return .invalidValue("request", error.body ?? error.status.reasonPhrase)
        }
    }

    /// 405 for a known path asked with another method; RFC 9110 has it list the path's methods.
    public static func methodNotAllowed(allow: String) -> Response {
        var response = response(for: .methodNotAllowed)
        response.headers[.allow] = allow
        return response
    }

    public static func response(for error: ParleyError) -> Response {
        var response = Response(
            status: HTTPResponse.Status(code: error.status), headers: JSONResponse.headers, body: ResponseBody(byteBuffer: body(for: error))
        )
        if let retryAfter = error.retryAfter {
            response.headers[.retryAfter] = String(retryAfter)
        }
        return response
    }

    /// The error body's bytes (also written by `MalformedRequestResponder`, below Hummingbird).
    public static func body(for error: ParleyError) -> ByteBuffer {
        let body = ErrorBody(error: true, code: error.code, message: error.message)
        // An error body always encodes; the empty body is only a guard against the impossible.
        return (try? JSONResponse.encoder.encode(body)).map { ByteBuffer(data: $0) } ?? ByteBuffer()
    }
}

/// `{ "error": true, "code": 400201, "message": "…" }`
public struct ErrorBody: Encodable {
    public let error: Bool
    public let code: Int
    public let message: String
}

extension ErrorResponses {
    /// The answers of the HTTP/1 channel to what is not HTTP, in the error body of API.md §1.5.
    public static let protocolFaultAnswers = ProtocolFaultAnswers { fault in
        let error: ParleyError =
            switch fault {
            case .headerTooLarge: .headerTooLarge
            case .malformedRequest: .malformedRequest
            }
        return .init(status: error.status, contentType: JSONResponse.contentType, body: body(for: error))
    }
}
