import Foundation

/// An outbound request, with the limits every request carries (none is optional: a call out of
/// the server must never hang or fill memory).
public struct OutboundRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
        case head = "HEAD"
    }

    /// A host and port connected to at a given address, whatever DNS says (`CURLOPT_RESOLVE`):
    /// the address a guard checked is the one used.
    public struct Pin: Sendable, Equatable {
        public var host: String
        public var port: Int
        public var address: String

        public init(host: String, port: Int, address: String) {
            self.host = host
            self.port = port
            self.address = address
        }
    }

    public var method: Method
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?
    public var connectTimeout: Duration
    /// The whole exchange, connecting included.
    public var timeout: Duration
    /// A longer answer aborts the transfer (`OutboundError.responseTooLarge`).
    public var maxResponseBytes: Int
    /// Redirects followed by libcurl itself; 0 (the default) returns a 3xx as it is, for callers
    /// that check each hop themselves.
    public var maxRedirects: Int
    public var pins: [Pin]
    /// A longer answer is cut at `maxResponseBytes` and returned with its status, rather than
    /// failing (a webhook receiver's answer is read only so far).
    public var keepsTruncatedAnswer = false
    /// The transfer ends once the answer holds this (ASCII, any case), and what came so far is
    /// returned: a link preview needs the page only up to `</head>`.
    public var stopAfter: [UInt8]?
    /// HTTP/2 over TLS, and waiting for a connection that can multiplex rather than opening
    /// another (`CURLOPT_PIPEWAIT`): many requests to one provider share one connection.
    public var multiplexes = false
    /// The certificate authorities trusted for this request instead of the system's.
    public var trustedAuthorities: CertificateAuthorities?

    public init(
        _ method: Method, _ url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil,
        connectTimeout: Duration = .seconds(3), timeout: Duration = .seconds(10), maxResponseBytes: Int = 1 << 20,
        maxRedirects: Int = 0, pins: [Pin] = []
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.maxRedirects = maxRedirects
        self.pins = pins
    }
}

/// Certificate authorities trusted besides the system's: a PEM file, with the system's directory
/// of hashed certificates (`/etc/ssl/certs`). Paths, not the bundle's bytes: libcurl copies an
/// in-memory bundle into every transfer and compares it on every connection reuse, which was a
/// quarter of a push's CPU.
public struct CertificateAuthorities: Sendable, Equatable {
    public let file: String
    public let systemDirectory: String

    public init(file: String, systemDirectory: String = "/etc/ssl/certs") {
        self.file = file
        self.systemDirectory = systemDirectory
    }
}

public struct OutboundResponse: Sendable {
    public var status: Int
    /// The final response's headers, in order (names as sent).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header of that name (case-insensitive).
    public func header(_ name: String) -> String? {
        let name = name.lowercased()
        return headers.first { $0.name.lowercased() == name }?.value
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    /// `Retry-After`, in seconds or as an HTTP date, from `now`.
    public func retryAfter(now: Date = Date()) -> Duration? {
        guard let value = header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
    }

    public var retryAfter: Duration? { retryAfter() }
}

public enum OutboundError: Error, Equatable, CustomStringConvertible {
    case timedOut
    case responseTooLarge(limit: Int)
    /// No connection could be made (refused, unreachable, DNS failure).
    case couldNotConnect(String)
    /// A URL libcurl refuses (another scheme, malformed).
    case invalidURL(String)
    /// Any other transfer failure: libcurl's code and message.
    case failed(code: Int, message: String)

    public var description: String {
        switch self {
        case .timedOut: "timed out"
        case .responseTooLarge(let limit): "response larger than \(limit) bytes"
        case .couldNotConnect(let message): "could not connect: \(message)"
        case .invalidURL(let message): "invalid URL: \(message)"
        case .failed(let code, let message): "transfer failed (\(code)): \(message)"
        }
    }
}
