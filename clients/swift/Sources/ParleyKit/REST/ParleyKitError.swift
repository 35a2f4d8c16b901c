import Foundation

/// What went wrong: the server's answer (API.md §1.5: an HTTP status and Parley's error code), or
/// a failure on the way (no answer: `status` and `code` 0).
public struct ParleyKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Parley's error code (for example 400201, not found), 0 when the server did not answer.
    public let code: Int
    /// The HTTP status, 0 when there was no answer.
    public let status: Int
    public let message: String

    public init(code: Int, status: Int, message: String) {
        self.code = code
        self.status = status
        self.message = message
    }

    public var description: String { "ParleyKitError(\(status)/\(code)): \(message)" }

    /// A session token the server no longer takes (expired, revoked): the token provider is asked.
    public var isInvalidSessionToken: Bool { status == 401 }

    static func transport(_ error: any Error) -> ParleyKitError {
        ParleyKitError(code: 0, status: 0, message: "\(error)")
    }

    static let notConnected = ParleyKitError(code: 0, status: 0, message: "Not connected: call connect(userId:sessionToken:) first.")
}
