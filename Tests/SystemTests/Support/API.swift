import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// How a test request authenticates.
enum Credential: Sendable {
    case admin
    case none
    case apiToken(String)
    case session(String)
    case bearer(String)
}

extension Credential {
    /// Adds the headers that carry this credential.
    func apply(to headers: inout HTTPFields) {
        switch self {
        case .admin: headers[HTTPField.Name("Api-Token")!] = TestServer.apiToken
        case .apiToken(let token): headers[HTTPField.Name("Api-Token")!] = token
        case .session(let token): headers[HTTPField.Name("Session-Token")!] = token
        case .bearer(let token): headers[.authorization] = "Bearer \(token)"
        case .none: break
        }
    }
}

/// Sends real HTTP requests to the test server and decodes the answers.
struct API: Sendable {
    let client: any TestClientProtocol

    /// A raw TCP connection to the same server.
    func connection(receiveBuffer: Int32? = nil) throws -> RawConnection {
        try RawConnection(port: try #require(client.port), receiveBuffer: receiveBuffer)
    }

    /// An event-stream upgrade on a raw connection, for a client that misbehaves (reads nothing,
    /// answers no ping): the test reads what the server sends as bytes.
    func rawEventStream(_ token: String, receiveBuffer: Int32? = nil) throws -> RawConnection {
        let connection = try connection(receiveBuffer: receiveBuffer)
        connection.send(
            "GET /v3/events HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Session-Token: \(token)\r\n\r\n")
        return connection
    }

    func get(_ path: String, as credential: Credential = .admin) async throws -> APIResponse {
        try await send(.get, path, as: credential)
    }

    func post(_ path: String, _ body: [String: Any] = [:], as credential: Credential = .admin) async throws -> APIResponse {
        try await send(.post, path, json: body, as: credential)
    }

    func put(_ path: String, _ body: [String: Any] = [:], as credential: Credential = .admin) async throws -> APIResponse {
        try await send(.put, path, json: body, as: credential)
    }

    func delete(_ path: String, as credential: Credential = .admin) async throws -> APIResponse {
        try await send(.delete, path, as: credential)
    }

    func send(
        _ method: HTTPRequest.Method, _ path: String, json: [String: Any]? = nil, as credential: Credential = .admin
    ) async throws -> APIResponse {
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await raw(method, path, body: body.map { String(decoding: $0, as: UTF8.self) }, as: credential)
    }

    /// Sends `body` exactly as given (for malformed JSON and odd content types).
    func raw(
        _ method: HTTPRequest.Method, _ path: String, body: String? = nil,
        contentType: String? = "application/json", headers extra: HTTPFields = [:], as credential: Credential = .admin
    ) async throws -> APIResponse {
        var headers = extra
        credential.apply(to: &headers)
        if body != nil, let contentType { headers[.contentType] = contentType }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return APIResponse(status: Int(response.status.code), headers: response.headers, text: String(buffer: response.body))
    }

    /// Creates a user through the API and returns a session token for them.
    @discardableResult
    func createUser(_ userID: String, nickname: String? = nil, metadata: [String: String] = [:]) async throws -> String {
        let response = try await post(
            "/v3/users",
            [
                "user_id": userID, "nickname": nickname ?? userID, "profile_url": "", "metadata": metadata, "issue_session_token": true
            ])
        guard response.status == 201, let token = try response.decode(UserBody.self).sessionToken else {
            throw TestFailure("creating \(userID) answered \(response.status): \(response.text)")
        }
        return token
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
