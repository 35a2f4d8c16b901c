import Foundation
import Testing

/// Catch-up over REST (API.md §6.6): the message and channel changelogs.
@Suite struct ChangelogTests {
    @Test func messageChangesSinceATimeArePagedOldestFirst() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("chl", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let base = "/v3/group_channels/\(channel)/messages"
            var ids: [Int] = []
            for index in 0..<4 {
                let sent = try await api.post(base, ["message_type": "MESG", "user_id": cast[0], "message": "m\(index)"])
                ids.append(try #require(sent.rawJSON["message_id"] as? Int))
            }
            try await Task.sleep(for: .milliseconds(5))
            let since = Int(Date.now.timeIntervalSince1970 * 1000)
            // Nothing changed yet since then.
            let empty = try await api.get("\(base)/changelogs?change_ts=\(since)", as: cast.session(1)).rawJSON
            #expect((empty["updated"] as? [Any])?.isEmpty == true && (empty["deleted"] as? [Any])?.isEmpty == true)
            #expect(empty["has_more"] as? Bool == false)
            // An edit, a reaction, a deletion: in that order.
            _ = try await api.put("\(base)/\(ids[2])", ["message_type": "MESG", "message": "edited"])
            _ = try await api.post("\(base)/\(ids[0])/reactions", ["user_id": cast[1], "reaction": "ok"])
            _ = try await api.delete("\(base)/\(ids[1])")
            let page1 = try await api.get("\(base)/changelogs?change_ts=\(since)&limit=2", as: cast.session(1))
            #expect(page1.status == 200, "\(page1.text)")
            let first = page1.rawJSON
            let updated = (first["updated"] as? [[String: Any]] ?? []).compactMap { $0["message_id"] as? Int }
            #expect(updated == [ids[2], ids[0]])
            #expect(first["has_more"] as? Bool == true)
            let token = try #require(first["next"] as? String)
            let second = try await api.get("\(base)/changelogs?token=\(token)", as: cast.session(1)).rawJSON
            #expect((second["updated"] as? [Any])?.isEmpty == true)
            #expect(second["deleted"] as? [Int] == [ids[1]])
            #expect(second["has_more"] as? Bool == false)
            // Its `next` is where to continue later: a new change appears there, and only it.
            let later = try #require(second["next"] as? String)
            _ = try await api.put("\(base)/\(ids[3])", ["message_type": "MESG", "message": "again"])
            let third = try await api.get("\(base)/changelogs?token=\(later)", as: cast.session(1)).rawJSON
            #expect((third["updated"] as? [[String: Any]])?.map { $0["message_id"] as? Int } == [ids[3]])
            // Outsiders read nothing; the parameters are checked.
            // (as the history refuses them: the channel is private)
            let refused = try await api.get("\(base)/changelogs?change_ts=0", as: cast.session(2)).status
            let history = try await api.get(base, as: cast.session(2)).status
            #expect(refused == 404 && refused == history)
            #expect(try await api.get("\(base)/changelogs", as: cast.session(1)).status == 400)
            #expect(try await api.get("\(base)/changelogs?change_ts=abc", as: cast.session(1)).status == 400)
            #expect(try await api.get("\(base)/changelogs?token=forged", as: cast.session(1)).status == 400)
            // A token of another channel's changelog is refused.
            let other = try await api.createChannel(["user_ids": [cast[1]]])
            #expect(try await api.get("/v3/group_channels/\(other)/messages/changelogs?token=\(later)").status == 400)
        }
    }

    @Test func channelChangesShowUpdatedAndLeftChannels() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("chc", 2)
            let kept = try await api.createChannel(["user_ids": [cast[0], cast[1]], "name": "kept"])
            let left = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let deleted = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let quiet = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            try await Task.sleep(for: .milliseconds(5))
            let since = Int(Date.now.timeIntervalSince1970 * 1000)
            let path = "/v3/users/\(cast[0])/my_group_channels/changelogs"
            #expect((try await api.get("\(path)?change_ts=\(since)", as: cast.session(0)).rawJSON["updated"] as? [Any])?.isEmpty == true)
            _ = try await api.put("/v3/group_channels/\(kept)", ["name": "renamed"])
            _ = try await api.put("/v3/group_channels/\(left)/leave", ["user_ids": [cast[0]]])
            _ = try await api.delete("/v3/group_channels/\(deleted)")
            let answer = try await api.get("\(path)?change_ts=\(since)", as: cast.session(0))
            #expect(answer.status == 200, "\(answer.text)")
            let body = answer.rawJSON
            let updated = body["updated"] as? [[String: Any]] ?? []
            #expect(updated.map { $0["channel_url"] as? String } == [kept])
            #expect(updated.first?["name"] as? String == "renamed")
            #expect(Set(body["deleted"] as? [String] ?? []) == [left, deleted])
            #expect(!(body["deleted"] as? [String] ?? []).contains(quiet))
            // A new message counts as a change of its channel.
            _ = try await api.post(
                "/v3/group_channels/\(quiet)/messages", ["message_type": "MESG", "user_id": cast[1], "message": "hi"])
            let next = try #require(body["next"] as? String)
            let after = try await api.get("\(path)?token=\(next)", as: cast.session(0)).rawJSON
            #expect((after["updated"] as? [[String: Any]])?.map { $0["channel_url"] as? String } == [quiet])
            // Only the user (or the admin) reads their changelog.
            #expect(try await api.get("\(path)?change_ts=0", as: cast.session(1)).status == 403)
            #expect(try await api.get("\(path)?change_ts=0").status == 200)
        }
    }
}
