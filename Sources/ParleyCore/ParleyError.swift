/// An error the API reports to the caller: HTTP status, the numeric code of API.md §1.5, a message.
///
/// Every failure a client can cause is one of these; anything else is an internal error that is
/// logged and answered 500 without details.
public struct ParleyError: Error, Sendable, Equatable, CustomStringConvertible {
    public let status: Int
    public let code: Int
    public let message: String
    /// Seconds the client should wait before retrying (429, 503).
    public let retryAfter: Int?

    public init(status: Int, code: Int, message: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { "ParleyError(\(status)/\(code)): \(message)" }
}

extension ParleyError {
    /// The JSON type a field was expected to have; each has its own error code.
    public enum ExpectedType: Sendable {
        case string, number, list, object, boolean

        var code: Int {
            switch self {
            case .string: 400100
            case .number: 400101
            case .list: 400102
            case .object: 400103
            case .boolean: 400104
            }
        }
    }

    public static func wrongType(_ field: String, expected: ExpectedType) -> ParleyError {
        ParleyError(status: 400, code: expected.code, message: "\"\(field)\" must be \(expected.article) \(expected).")
    }

    public static func missing(_ field: String) -> ParleyError {
        ParleyError(status: 400, code: 400105, message: "\"\(field)\" is required.")
    }

    public static let invalidPageToken = ParleyError(status: 400, code: 400109, message: "The page token is invalid or expired.")

    public static func tooLong(_ field: String, max: Int) -> ParleyError {
        ParleyError(status: 400, code: 400110, message: "\"\(field)\" is longer than \(max).")
    }

    public static func invalidValue(_ field: String, _ reason: String) -> ParleyError {
        ParleyError(status: 400, code: 400111, message: "\"\(field)\" is invalid: \(reason).")
    }

    /// The body is not a well-formed HTTP message body (a bad chunk, a missing CRLF, a bad trailer).
    public static let malformedBody = ParleyError(status: 400, code: 400111, message: "The request body is malformed.")

    /// What is not an HTTP/1.1 request at all (a bad request line or header, conflicting lengths).
    public static let malformedRequest = ParleyError(status: 400, code: 400111, message: "The request is not well-formed HTTP/1.1.")

    /// A request header larger than the server reads (431, RFC 6585 §5).
    public static let headerTooLarge = ParleyError(status: 431, code: 400110, message: "The request header is too large.")

    public static let invalidJSON = ParleyError(status: 400, code: 400403, message: "The request body is not valid JSON.")

    public static func invalidJSON(_ reason: String) -> ParleyError {
        ParleyError(status: 400, code: 400403, message: "The request body is not valid JSON: \(reason).")
    }

    public static let invalidApiToken = ParleyError(status: 401, code: 400401, message: "A valid Api-Token or session token is required.")

    public static let invalidSessionToken = ParleyError(status: 401, code: 400302, message: "The session token is invalid or expired.")

    public static let deactivatedUser = ParleyError(status: 401, code: 400300, message: "The user is deactivated.")

    public static func forbidden(_ message: String = "You are not allowed to do this.") -> ParleyError {
        ParleyError(status: 403, code: 400108, message: message)
    }

    public static func notFound(_ message: String) -> ParleyError {
        ParleyError(status: 404, code: 400201, message: message)
    }

    /// Unknown ids inside a request body (400, not 404: the addressed resource exists).
    public static func unknownReference(_ message: String) -> ParleyError {
        ParleyError(status: 400, code: 400201, message: message)
    }

    public static func alreadyExists(_ message: String) -> ParleyError {
        ParleyError(status: 409, code: 400202, message: message)
    }

    public static func tooMany(_ message: String) -> ParleyError {
        ParleyError(status: 409, code: 400203, message: message)
    }

    /// 413 for the body, or a part of it (`what`: "The file", "A form field"), over its limit.
    public static func bodyTooLarge(max: Int, what: String = "The request body") -> ParleyError {
        ParleyError(status: 413, code: 400110, message: "\(what) is larger than \(max) bytes.")
    }

    public static func rangeNotSatisfiable(size: Int64) -> ParleyError {
        ParleyError(status: 416, code: 400111, message: "The range is outside the file's \(size) bytes.")
    }

    /// A file auth key that is missing, invalid or expired (API.md §5.2).
    public static func fileKeyRefused(_ message: String) -> ParleyError {
        ParleyError(status: 401, code: 400302, message: message)
    }

    public static let channelFrozen = ParleyError(status: 403, code: 900050, message: "The channel is frozen.")

    /// A banned user joins, accepts an invitation, enters or is added (API.md §7.1).
    public static func banned(from channelURL: String) -> ParleyError {
        ParleyError(status: 403, code: 400750, message: "The user is banned from \"\(channelURL)\".")
    }

    public static let bannedSender = ParleyError(status: 403, code: 900100, message: "The user is banned from this channel.")

    public static let mutedSender = ParleyError(status: 403, code: 900041, message: "The user is muted in this channel.")

    /// A user message a blocking domain or profanity filter matched (API.md §14.7).
    public static let blockedByFilter = ParleyError(status: 403, code: 900060, message: "The message was blocked by a message filter.")

    public static func unsupportedMediaType(_ type: String) -> ParleyError {
        ParleyError(status: 415, code: 400111, message: "Unsupported media type \"\(type)\".")
    }

    public static func rateLimited(retryAfter: Int) -> ParleyError {
        ParleyError(status: 429, code: 500910, message: "Rate limit exceeded.", retryAfter: retryAfter)
    }

    public static let internalError = ParleyError(status: 500, code: 500901, message: "Internal error.")

    public static let unavailable = ParleyError(
        status: 503, code: 500902, message: "A dependency is unavailable; try again shortly.", retryAfter: 1
    )

    public static let routeNotFound = ParleyError(status: 404, code: 400930, message: "No such endpoint.")

    public static let methodNotAllowed = ParleyError(status: 405, code: 400930, message: "Method not allowed on this endpoint.")
}

extension ParleyError.ExpectedType: CustomStringConvertible {
    public var description: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .list: "list"
        case .object: "JSON object"
        case .boolean: "boolean"
        }
    }

    var article: String { "a" }
}

extension ParleyError {
    /// An open channel at its participant cap (API.md §8.3).
    public static func channelFull(_ channelURL: String, cap: Int) -> ParleyError {
        ParleyError(status: 403, code: 900400, message: "\"\(channelURL)\" already has \(cap) participants.")
    }
}
