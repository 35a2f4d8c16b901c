import Foundation
import Testing

/// Issue 29.15b: a JSON object that gives a key twice is 400403, however the two are spelled
/// (escapes, Unicode normalization), and the check stays linear in the body.
@Suite struct DuplicateKeyTests {

    @Test func aRepeatedKeyIs400403AndChangesNothing() async throws {
        try await TestServer.withAPI { api in
            let userID = uniqueID("twice")
            let repeated = #"{"user_id":"\#(userID)","nickname":"a","nickname":"b"}"#
            #expect(try await api.raw(.post, "/v3/users", body: repeated).code == 400403)
            #expect(try await api.get("/v3/users/\(userID)").status == 404, "nothing was created")
            _ = try await api.post("/v3/users", ["user_id": userID, "nickname": "n"])
            let path = "/v3/users/\(userID)/metadata"
            for map in [#"{"a":"1","\u0061":"2"}"#, #"{"\u00e9":"1","e\u0301":"2"}"#, "{\"\u{E9}\":\"1\",\"e\u{301}\":\"2\"}"] {
                let response = try await api.raw(.post, path, body: #"{"metadata":\#(map)}"#)
                #expect(response.status == 400, "\(map)")
                #expect(try response.code == 400403, "\(map)")
            }
            #expect(try await api.get(path).rawJSON.isEmpty, "nothing was stored")
        }
    }
}
