import Foundation
import Testing

@testable import ParleyHTTP

/// Issue 29.15b: a JSON object that gives a key twice is 400403, however the two are spelled
/// (escapes, Unicode normalization), and the check stays linear in the body.
@Suite struct DuplicateKeyTests {
    private func accepts(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in (try? JSONSyntaxGuard.check(UnsafeRawBufferPointer(bytes))) != nil }
    }

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

    @Test func keysAreComparedPerObjectAndByTheirText() {
        for valid in [
            #"{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}"#, #"{"a":1,"A":2,"a ":3}"#, #"{"\u00e9":1,"e":2}"#, #"[{"a":1},{"a":1}]"#
        ] {
            #expect(accepts(valid), "\(valid)")
        }
        for repeated in [
            #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"/":1,"\/":2}"#, #"{"x":{"k":1,"b":[],"k":2}}"#,
            #"{"\u00e9":1,"e\u0301":2}"#, "{\"\u{E9}\":1,\"e\u{301}\":2}", "{\"\u{E9}\":1,\"\\u00e9\":2}",
            // U+212A KELVIN SIGN is canonically the letter K.
            #"{"K":1,"\u212a":2}"#, "{\"\u{1F600}\":1,\"\\ud83d\\ude00\":2}", #"{"\n":1,"\u000a":2}"#
        ] {
            #expect(!accepts(repeated), "\(repeated)")
        }
    }

    /// 100,000 keys in one object, plain or needing normalization, pass in linear time.
    @Test func manyKeysAreCheckedInLinearTime() {
        for prefix in ["k", "\u{E9}"] {
            let body = "{" + (0..<100_000).map { "\"\(prefix)\($0)\":0" }.joined(separator: ",") + "}"
            let start = ContinuousClock.now
            #expect(accepts(body))
            #expect(!accepts(String(body.dropLast()) + ",\"\(prefix)99999\":1}"))
            #expect(ContinuousClock.now - start < .seconds(10), "\(prefix): \(ContinuousClock.now - start)")
        }
    }
}
