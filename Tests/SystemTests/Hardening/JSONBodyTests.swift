import Foundation
import Testing

/// Issue 10.1: JSON bodies are checked for strict syntax and depth before any decoder sees them.
@Suite struct JSONBodyTests {
    @Test func bodiesEndingInsideDeepNestingAre400403AndTheServerLives() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("deep", 1)
            let url = try await api.createChannel(["user_ids": []], as: users.session(0))
            let path = "/v3/group_channels/\(url)/messages"
            // 512 brackets after the prefix ended swift-foundation's JSONDecoder with SIGILL.
            for depth in [511, 512, 513, 514, 100_000] {
                let body = #"{"message":"x","n":"# + String(repeating: "[", count: depth)
                let response = try await api.raw(.post, path, body: body, as: users.session(0))
                #expect(response.status == 400, "depth \(depth)")
                #expect(try response.code == 400403, "depth \(depth)")
            }
            let closedButDeep = #"{"message":"x","n":"# + String(repeating: "[", count: 65) + String(repeating: "]", count: 65) + "}"
            #expect(try await api.raw(.post, path, body: closedButDeep, as: users.session(0)).code == 400403)
            let atTheLimit = #"{"message":"x","n":"# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
            #expect(try await api.raw(.post, path, body: atTheLimit, as: users.session(0)).status == 201)
            #expect(try await api.get("/health", as: .none).status == 200)
        }
    }

    @Test func trailingCommasAndOtherNonStrictJSONAre400403() async throws {
        try await TestServer.withAPI { api in
            let userID = uniqueID("strict")
            for body in [
                #"{"user_id":"\#(userID)","nickname":"n",}"#, #"{"user_id":"\#(userID)","nickname":"n","x":[1,]}"#,
                #"{"user_id":"\#(userID)","nickname":"n"} {}"#, #"{"user_id":'\#(userID)'}"#,
                #"{"user_id":"\#(userID)","nickname":"n","x":01}"#,
                #"{"user_id":"\#(userID)","nickname":"n","x":NaN}"#, #"{"user_id":"\#(userID)" "nickname":"n"}"#
            ] {
                let response = try await api.raw(.post, "/v3/users", body: body)
                #expect(response.status == 400, "\(body)")
                #expect(try response.code == 400403, "\(body)")
            }
            #expect(try await api.get("/v3/users/\(userID)").status == 404, "nothing was created")
        }
    }
}
