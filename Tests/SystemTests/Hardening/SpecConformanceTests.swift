import Foundation
import HTTPTypes
import Testing

/// Issue 10: what a schemathesis run against openapi.yaml found (scripts/schemathesis). Every bad
/// input gets the documented error and changes nothing, wherever it appears, and the spec's
/// rules are the server's.
@Suite struct SpecConformanceTests {
    /// A `{user_id}` in a path that is no user id is 400111 on every route, never a 200 with
    /// nothing in it (my_group_channels, the unread counts and mark_as_read_all looked it up).
    @Test func aMalformedPathUserIDIs400111Everywhere() async throws {
        try await TestServer.withAPI { api in
            let bad = "%C3%97%C3%B8"  // "×ø"
            let requests: [(HTTPRequest.Method, String)] = [
                (.get, "/v3/users/\(bad)"),
                (.get, "/v3/users/\(bad)/my_group_channels"),
                (.get, "/v3/users/\(bad)/unread_message_count"),
                (.get, "/v3/users/\(bad)/unread_channel_count"),
                (.put, "/v3/users/\(bad)/mark_as_read_all"),
                (.get, "/v3/users/\(bad)/metadata"),
                (.get, "/v3/group_channels/c/members/\(bad)"),
                (.post, "/v3/users/../token")
            ]
            for (method, path) in requests {
                let response = try await api.send(method, path, json: method == .get ? nil : [:])
                #expect(response.status == 400, "\(method) \(path)")
                #expect(try response.code == 400111, "\(method) \(path): \(response.text)")
            }
            // A well-formed id of nobody is still listed as having nothing (the admin may ask).
            let unknown = try await api.get("/v3/users/\(uniqueID("nobody"))/unread_channel_count")
            #expect(unknown.status == 200)
        }
    }

    /// TRACE and QUERY are wrong methods like any other: 405 with the path's `Allow`.
    @Test func traceAndQueryAre405WithAllow() async throws {
        try await TestServer.withAPI { api in
            for method in [HTTPRequest.Method.trace, HTTPRequest.Method("QUERY")!] {
                for (path, allow) in [("/health", "GET"), ("/ready", "GET"), ("/v3/users", "GET, POST")] {
                    for credential in [Credential.none, .admin] {
                        let response = try await api.send(method, path, as: credential)
                        #expect(response.status == 405, "\(method) \(path)")
                        #expect(try response.code == 400930, "\(method) \(path)")
                        #expect(response.headers[.allow] == allow, "\(method) \(path)")
                    }
                }
            }
        }
    }

    /// U+0000 is refused in what the server reads; a field it ignores is not read.
    @Test func nulInAnIgnoredBodyFieldIsIgnored() async throws {
        let userID = uniqueID("nul-ignored")
        try await TestServer.withAPI { api in
            try await api.createUser(userID)
            let ignored = try await api.put("/v3/users/\(userID)", ["nickname": "Ann", "extra\u{0}": ["x": "a\u{0}b"]])
            #expect(ignored.status == 200, "\(ignored.text)")
            #expect(try ignored.decode(UserBody.self).nickname == "Ann")
            let read = try await api.put("/v3/users/\(userID)", ["nickname": "A\u{0}nn"])
            #expect(try read.code == 400111)
            let list = try await api.post("/v3/group_channels", ["user_ids": [userID], "operator_ids": ["x\u{0}"]])
            #expect(try list.code == 400111)
            #expect(try await api.get("/v3/users/\(userID)").decode(UserBody.self).nickname == "Ann")
        }
    }

    /// A value given in both the body and the query is checked in both, even though the body's
    /// wins: a bad one is never let through unread.
    @Test func valuesGivenTwiceAreCheckedTwice() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("twice", 2)
            let url = try await api.createChannel(["user_ids": [cast[0], cast[1]], "is_public": true])
            let base = "/v3/group_channels/\(url)"
            // user_id: a malformed one in the body or in the query is 400111 (it was looked up).
            let badBody = try await api.put("\(base)/messages/mark_as_delivered", ["user_id": "a b"])
            #expect(try badBody.code == 400111, "\(badBody.text)")
            let badQuery = try await api.put("\(base)/messages/mark_as_delivered?user_id=%C3%97", ["user_id": cast[0]])
            #expect(try badQuery.code == 400111, "\(badQuery.text)")
            #expect(try await api.put("\(base)/messages/mark_as_delivered", ["user_id": cast[0]]).status == 200)
            // should_unhide_all: a body value does not hide a malformed query one.
            let unhide = try await api.send(
                .delete, "\(base)/hide?should_unhide_all=maybe", json: ["user_id": cast[0], "should_unhide_all": false])
            #expect(try unhide.code == 400104, "\(unhide.text)")
            // reaction: the query's is used, the body's must still be a reaction.
            let sent = try await api.post("\(base)/messages", ["user_id": cast[0], "message": "hi"])
            let messageID = try sent.decode(MessageBody.self).messageID
            let reactions = "\(base)/messages/\(messageID)/reactions"
            #expect(try await api.post(reactions, ["user_id": cast[0], "reaction": "ok"]).status == 200)
            let wrongType = try await api.send(.delete, "\(reactions)?reaction=ok", json: ["user_id": cast[0], "reaction": 5])
            #expect(try wrongType.code == 400100, "\(wrongType.text)")
            let empty = try await api.send(.delete, "\(reactions)?reaction=ok", json: ["user_id": cast[0], "reaction": ""])
            #expect(try empty.code == 400111, "\(empty.text)")
            let missing = try await api.send(.delete, reactions, json: ["user_id": cast[0]])
            #expect(try missing.code == 400105, "\(missing.text)")
            #expect(try await api.send(.delete, "\(reactions)?reaction=ok", json: ["user_id": cast[0]]).status == 200)
        }
    }

    /// A `FILE` sent as JSON links an `http://` or `https://` URL (any letter case), nothing else.
    @Test func anExternalFileURLStartsWithHTTPOrHTTPS() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("link", 1)
            let url = try await api.createChannel(["user_ids": [cast[0]]])
            for link in ["http:x://y", "https:/example.com/a", "ftp://example.com/a", "javascript://x"] {
                let response = try await api.post(
                    "/v3/group_channels/\(url)/messages", ["user_id": cast[0], "message_type": "FILE", "url": link])
                #expect(try response.code == 400111, "\(link): \(response.text)")
            }
            // A character that joins the slash before it (a skin-tone modifier) still leaves the
            // URL starting with `http://` (found by schemathesis: the check compared characters).
            for link in ["HTTPS://example.com/a.png", "http://example.com/b", "HTtP://\u{1F3FB}zG"] {
                let response = try await api.post(
                    "/v3/group_channels/\(url)/messages", ["user_id": cast[0], "message_type": "FILE", "url": link])
                #expect(response.status == 201, "\(link): \(response.text)")
            }
        }
    }

    /// A quoted multipart field name is kept exactly: `" custom_type"` is another (ignored)
    /// field, and a name of blanks is a name, not a missing one.
    @Test func quotedMultipartFieldNamesAreKeptExactly() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("names", 1)
            let url = try await api.createChannel(["user_ids": [cast[0]]])
            let fields = ["user_id": cast[0], " custom_type": "spaced", "\t": "tab", "custom_type": "plain"]
            let response = try await api.upload(url, fields, file: FormFile(bytes: Array("hello".utf8)))
            #expect(response.status == 201, "\(response.text)")
            #expect(try response.decode(MessageBody.self).customType == "plain")
        }
    }

    /// `thumbnail<n>` is `WIDTHxHEIGHT` in decimal digits: no sign, no spaces.
    @Test func thumbnailBoxesAreDigitsOnly() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("box", 1)
            let url = try await api.createChannel(["user_ids": [cast[0]]])
            let png = try Media.pngWithAlpha(4, 4)
            for box in ["+5x5", "5x-5", " 5x5", "5x5 ", "0x5", "8193x1", "2049x1", "1x4096"] {
                let response = try await api.upload(
                    url, ["user_id": cast[0], "thumbnail1": box], file: FormFile(fileName: "a.png", contentType: "image/png", bytes: png))
                #expect(try response.code == 400111, "\(box): \(response.text)")
            }
            let fine = try await api.upload(
                url, ["user_id": cast[0], "thumbnail1": "002X2048"], file: FormFile(fileName: "a.png", contentType: "image/png", bytes: png)
            )
            #expect(fine.status == 201, "\(fine.text)")
        }
    }
}
