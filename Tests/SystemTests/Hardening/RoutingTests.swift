import Foundation
import Testing

/// Issue 10.6: unknown routes and wrong methods are answered the same with or without a token,
/// and `Allow` lists the methods of the route the path really is.
@Suite struct RoutingTests {
    @Test func unknownRoutesAre404ForEveryone() async throws {
        try await TestServer.withAPI { api in
            for credential in [Credential.none, .admin, .apiToken("wrong-token-0123456789")] {
                for path in ["/v3/nothing_here", "/v3/users/a/b/c/d", "/nothing", "/v3"] {
                    let response = try await api.get(path, as: credential)
                    #expect(response.status == 404, "\(path)")
                    #expect(try response.code == 400930, "\(path)")
                }
            }
        }
    }

    @Test func wrongMethodsAre405WithTheRoutesOwnMethods() async throws {
        try await TestServer.withAPI { api in
            let cases: [(String, String)] = [
                ("/health", "GET"),
                ("/v3/users", "GET, POST"),
                ("/v3/users/someone", "DELETE, GET, PUT"),
                ("/v3/group_channels/c/messages/mark_as_read", "PUT"),
                ("/v3/group_channels/c/messages/unread_count", "GET"),
                ("/v3/group_channels/c/messages/total_count", "GET"),
                ("/v3/group_channels/c/messages/17", "DELETE, GET, PUT"),
                ("/v3/files/0123456789abcdef0123456789abcdef", "GET")
            ]
            for credential in [Credential.none, .admin] {
                for (path, allow) in cases {
                    let response = try await api.send(.patch, path, as: credential)
                    #expect(response.status == 405, "\(path)")
                    #expect(try response.code == 400930, "\(path)")
                    #expect(response.headers[.allow] == allow, "\(path)")
                }
            }
            let post = try await api.raw(.post, "/health", body: "{}", as: .none)
            #expect(post.status == 405)
            #expect(post.headers[.allow] == "GET")
        }
    }
}
