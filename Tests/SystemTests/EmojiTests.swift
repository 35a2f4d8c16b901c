import Foundation
import Testing

/// The emoji set and the reaction settings (API.md §14.6), on a database of their own (they are
/// the whole application's).
@Suite struct EmojiTests {
    @Test func theSetIsDefinedByTheAdminReadByUsersAndHeldToByReactions() async throws {
        try await OwnDatabase.with { database in
            try await TestServer.withAPI({ $0.databaseURL = database }) { api in
                let cast = try await api.cast("emoji", 2)
                let channel = try await api.createChannel(["user_ids": cast.ids])
                let sent = try await api.post("/v3/group_channels/\(channel)/messages", ["message": "hi"], as: cast.session(0))
                let reactions = "/v3/group_channels/\(channel)/messages/\(sent.rawJSON["message_id"] as? Int ?? 0)/reactions"
                // No set yet: any key.
                #expect(try await api.post(reactions, ["user_id": cast[1], "reaction": "anything"], as: cast.session(1)).status == 200)
                let emptyHash = try await api.get("/v3/emoji_categories").rawJSON["emoji_hash"] as? String

                let categories = try await api.post(
                    "/v3/emoji_categories", ["emoji_categories": [["name": "Faces", "url": "https://cdn.test/faces.png"]]])
                #expect(categories.status == 200, "\(categories.text)")
                let categoryID = try #require((categories.rawJSON["emoji_categories"] as? [[String: Any]])?.first?["id"] as? Int)
                let added = try await api.post(
                    "/v3/emojis",
                    [
                        "emoji_category_id": categoryID,
                        "emojis": [["key": "smile", "url": "https://cdn.test/smile.png"], ["key": "sad", "url": "https://cdn.test/sad.png"]]
                    ])
                #expect((added.rawJSON["emojis"] as? [[String: Any]])?.map { $0["key"] as? String } == ["smile", "sad"], "\(added.text)")
                // A taken key adds nothing; bad values are refused.
                #expect(
                    try await api.post(
                        "/v3/emojis", ["emoji_category_id": categoryID, "emojis": [["key": "smile", "url": "https://x.test/a"]]]
                    ).code == 400202)
                #expect(
                    try await api.post(
                        "/v3/emojis", ["emoji_category_id": categoryID, "emojis": [["key": "a b", "url": "https://x.test/a"]]]
                    ).code == 400111)
                #expect(
                    try await api.post("/v3/emojis", ["emoji_category_id": categoryID, "emojis": [["key": "ok", "url": "javascript:x"]]])
                        .code == 400111)
                #expect(
                    try await api.post("/v3/emojis", ["emoji_category_id": 999_999, "emojis": [["key": "ok", "url": "https://x.test/a"]]])
                        .status == 404)
                #expect(
                    try await api.post(
                        "/v3/emojis", ["emoji_category_id": categoryID, "emojis": [["key": "x", "url": "https://x.test/a"]]],
                        as: cast.session(0)
                    ).status == 403)

                // Users read the set; its hash moved.
                let set = try await api.get("/v3/emoji_categories", as: cast.session(0))
                #expect(set.rawJSON["emoji_hash"] as? String != emptyHash)
                let faces = (set.rawJSON["emoji_categories"] as? [[String: Any]])?.first
                #expect((faces?["emojis"] as? [[String: Any]])?.map { $0["key"] as? String } == ["smile", "sad"])
                #expect(
                    try await api.get("/v3/emojis/smile", as: cast.session(1)).rawJSON["url"] as? String == "https://cdn.test/smile.png")
                #expect(
                    try await api.put("/v3/emojis/smile", ["url": "https://cdn.test/smile2.png"]).rawJSON["url"] as? String
                        == "https://cdn.test/smile2.png")
                #expect(try await api.get("/v3/emojis/frown").status == 404)

                // Reactions take only the set's keys now; the default set lifts that; off is off.
                #expect(try await api.post(reactions, ["user_id": cast[1], "reaction": "smile"], as: cast.session(1)).status == 200)
                #expect(try await api.post(reactions, ["user_id": cast[1], "reaction": "frown"], as: cast.session(1)).code == 400111)
                #expect(
                    try await api.put("/v3/applications/settings/use_default_emoji", ["use_default_emoji": true]).rawJSON[
                        "use_default_emoji"] as? Bool == true)
                #expect(try await api.post(reactions, ["user_id": cast[1], "reaction": "frown"], as: cast.session(1)).status == 200)
                #expect(try await api.put("/v3/applications/settings/reactions", ["enabled": false]).rawJSON["reactions"] as? Bool == false)
                #expect(try await api.post(reactions, ["user_id": cast[1], "reaction": "smile"], as: cast.session(1)).status == 403)
                #expect(try await api.put("/v3/applications/settings/reactions", ["enabled": true], as: cast.session(0)).status == 403)
                #expect(try await api.put("/v3/applications/settings/reactions", [:]).code == 400105)

                // Deleting the category takes its emojis with it.
                #expect(try await api.delete("/v3/emoji_categories/\(categoryID)").status == 200)
                #expect((try await api.get("/v3/emojis").rawJSON["emojis"] as? [Any])?.isEmpty == true)
                #expect(try await api.get("/v3/emoji_categories/\(categoryID)").status == 404)
            }
        }
    }
}
