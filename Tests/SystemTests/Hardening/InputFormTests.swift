import Foundation
import Testing

/// Issue 10.5 and 10.7: dot-segment identifiers, bidi controls in file names, booleans in every
/// spelling the API documents, and empty messages.
@Suite struct InputFormTests {
    @Test func dotSegmentsAreNotIdentifiers() async throws {
        try await TestServer.withAPI { api in
            for id in [".", ".."] {
                let user = try await api.post("/v3/users", ["user_id": id, "nickname": "dots"])
                #expect(user.status == 400)
                #expect(try user.code == 400111)
                let channel = try await api.post("/v3/group_channels", ["user_ids": [], "channel_url": id])
                #expect(channel.status == 400)
                #expect(try channel.code == 400111)
            }
            #expect(try await api.post("/v3/group_channels", ["user_ids": [], "channel_url": "..\(uniqueID("x"))"]).status == 201)
        }
    }

    @Test func bidiControlsLeaveFileNames() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("bidi", 1)
            let url = try await api.createChannel(["user_ids": []], as: users.session(0))
            let named = try await api.upload(
                url, ["file_name": "invoice\u{202E}gnp.exe"], file: FormFile(bytes: [1, 2, 3]), as: users.session(0))
            #expect(named.status == 201, "\(named.text)")
            #expect(try named.decode(MessageBody.self).file?.name == "invoicegnp.exe")
            let fromPart = try await api.upload(
                url, file: FormFile(fileName: "a\u{2066}b\u{2069}c.png", bytes: [1, 2, 3]), as: users.session(0))
            #expect(try fromPart.decode(MessageBody.self).file?.name == "abc.png")
            let external = try await api.post(
                "/v3/group_channels/\(url)/messages",
                [
                    "message_type": "FILE", "url": "https://cdn.example.com/x", "file_name": "x\u{202D}y.pdf"
                ], as: users.session(0))
            #expect(try external.decode(MessageBody.self).file?.name == "xy.pdf")
        }
    }

    @Test func booleansAcceptEveryDocumentedSpelling() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("bools", 1)
            let url = try await api.createChannel(["user_ids": []], as: users.session(0))
            for spelling in ["true", "True", "TRUE", "1"] {
                let channel = try await api.get("/v3/group_channels/\(url)?show_member=\(spelling)", as: users.session(0))
                #expect(try channel.decode(ChannelBody.self).members?.count == 1, "\(spelling)")
            }
            for spelling in ["false", "False", "0"] {
                #expect(
                    try await api.get("/v3/group_channels/\(url)?show_member=\(spelling)", as: users.session(0)).rawJSON["members"] == nil)
            }
            for spelling in ["yes", "tru", "2", ""] {
                #expect(
                    try await api.get("/v3/group_channels/\(url)?show_member=\(spelling)", as: users.session(0)).code == 400104,
                    "\(spelling)")
            }
            let upload = try await api.upload(url, ["require_auth": "False"], file: FormFile(bytes: [1]), as: users.session(0))
            #expect(try upload.decode(MessageBody.self).requireAuth == false)
        }
    }

    @Test func userAndAdminMessagesNeedText() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("empty", 1)
            let url = try await api.createChannel(["user_ids": []], as: users.session(0))
            let path = "/v3/group_channels/\(url)/messages"
            #expect(try await api.post(path, ["message": ""], as: users.session(0)).code == 400111)
            #expect(try await api.post(path, [:], as: users.session(0)).code == 400105)
            #expect(try await api.post(path, ["message_type": "ADMM", "message": ""]).code == 400111)
            #expect(
                try await api.post(path, ["message_type": "FILE", "url": "https://cdn.example.com/a"], as: users.session(0)).status == 201)
        }
    }
}
