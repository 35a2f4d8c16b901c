import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import HummingbirdTesting

/// A test client on a connection of its own to the test server.
struct SeparateConnection: TestClientProtocol {
    let client: TestClient

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        var headers = headers
        headers[.connection] = "keep-alive"
        let request = TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body)
        let response = try await client.execute(request)
        return .init(head: response.head, body: response.body ?? ByteBuffer(), trailerHeaders: response.trailerHeaders)
    }

    var port: Int? { client.port }
}

extension API {
    /// Runs `body` with `count` clients of the same server, each on a connection of its own: one
    /// connection's requests are served one after another, so requests that must really run at
    /// the same time need one each.
    func withConnections<Value: Sendable>(_ count: Int, _ body: @Sendable ([API]) async throws -> Value) async throws -> Value {
        let port = try #require(client.port)
        let clients = (0..<count).map { _ in TestClient(host: "localhost", port: port, configuration: .init(timeout: .seconds(60))) }
        clients.forEach { $0.connect() }
        do {
            let value = try await body(clients.map { API(client: SeparateConnection(client: $0)) })
            for client in clients { try? await client.shutdown() }
            return value
        } catch {
            for client in clients { try? await client.shutdown() }
            throw error
        }
    }
}

extension API {
    /// `count` requests at once, spread over `connections` connections of their own (a connection
    /// serves its requests one after another, so a burst on one connection runs in turn): what
    /// `request` returns for each index (a status, say), in no particular order.
    func burst<Result: Sendable>(
        _ count: Int, connections: Int = 16, _ request: @escaping @Sendable (API, Int) async throws -> Result
    ) async throws -> [Result] {
        try await withConnections(max(1, min(count, connections))) { clients in
            try await withThrowingTaskGroup(of: Result.self) { group in
                for index in 0..<count { group.addTask { try await request(clients[index % clients.count], index) } }
                return try await group.reduce(into: [Result]()) { $0.append($1) }
            }
        }
    }
}
