import Foundation
import Testing

/// Open channels (API.md §8.1, §8.2): the resource, its list, who may change it, and the
/// message endpoints of §4 under `/v3/open_channels`.
@Suite struct OpenChannelTests {
    @Test func aUserCreatesAChannelAndOperatesItOthersOnlyLook() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("oc", 2)
            let created = try await api.post("/v3/open_channels", ["name": "Lobby", "custom_type": "room"], as: cast.session(0))
            #expect(created.status == 201, "\(created.text)")
            let channel = created.rawJSON
            let url = try #require(channel["channel_url"] as? String)
            #expect(url.hasPrefix("open_"))
            #expect(channel["channel_type"] as? String == "open")
            #expect(channel["participant_count"] as? Int == 0)
            #expect(channel["freeze"] as? Bool == false)
            #expect((channel["created_by"] as? [String: Any])?["user_id"] as? String == cast[0])
            #expect((channel["operators"] as? [[String: Any]])?.map { $0["user_id"] as? String } == [cast[0]])

            let base = "/v3/open_channels/\(url)"
            #expect(try await api.get(base, as: cast.session(1)).rawJSON["name"] as? String == "Lobby")
            // Another user reads but does not change, freeze or delete.
            for response in [
                try await api.put(base, ["name": "Mine"], as: cast.session(1)),
                try await api.put("\(base)/freeze", ["freeze": true], as: cast.session(1)),
                try await api.delete(base, as: cast.session(1)),
                try await api.post("\(base)/metadata", ["metadata": ["a": "b"]], as: cast.session(1))
            ] {
                #expect(response.status == 403)
                #expect(try response.code == 400108)
            }
            let renamed = try await api.put(base, ["name": "Hall", "operator_ids": [cast[1]]], as: cast.session(0))
            #expect(renamed.rawJSON["name"] as? String == "Hall")
            #expect((renamed.rawJSON["operators"] as? [[String: Any]])?.map { $0["user_id"] as? String } == [cast[1]])
            // The operator now is the other user, in the channel or not.
            #expect(try await api.put("\(base)/freeze", ["freeze": true], as: cast.session(1)).rawJSON["freeze"] as? Bool == true)
            #expect(try await api.post("\(base)/metadata", ["metadata": ["topic": "cats"]], as: cast.session(1)).status == 201)
            #expect(try await api.get("\(base)/metadata/topic", as: cast.session(0)).rawJSON["topic"] as? String == "cats")
            #expect(try await api.put(base, ["name": "Again"], as: cast.session(0)).status == 403)
            #expect(try await api.get("/v3/open_channels/open_nothing_here").status == 404)
            #expect(try await api.delete(base, as: cast.session(1)).status == 200)
            #expect(try await api.get(base).status == 404)
        }
    }

    @Test func groupAndOpenChannelsShareOneURLNamespace() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ns", 1)
            let url = uniqueID("shared")
            #expect(try await api.post("/v3/group_channels", ["channel_url": url, "user_ids": [cast[0]]]).status == 201)
            let open = try await api.post("/v3/open_channels", ["channel_url": url])
            #expect(open.status == 409)
            #expect(try open.code == 400202)
            let other = uniqueID("shared")
            #expect(try await api.post("/v3/open_channels", ["channel_url": other]).status == 201)
            #expect(try await api.post("/v3/group_channels", ["channel_url": other, "user_ids": [cast[0]]]).status == 409)
            #expect(try await api.get("/v3/group_channels/\(other)").status == 404)
            #expect(try await api.get("/v3/open_channels/\(url)").status == 404)
        }
    }

    @Test func theListSearchesByNameURLAndCustomTypeInKeysetPages() async throws {
        try await TestServer.withAPI { api in
            let tag = uniqueID("srch").lowercased()
            var urls: [String] = []
            for index in 0..<5 {
                let body: [String: Any] = [
                    "channel_url": "\(tag)-\(index)", "name": index % 2 == 0 ? "Cats \(tag.uppercased()) \(index)" : "Dogs \(index)",
                    "custom_type": index < 3 ? "\(tag)-a" : "\(tag)-b"
                ]
                #expect(try await api.post("/v3/open_channels", body).status == 201)
                urls.append("\(tag)-\(index)")
            }
            #expect(try await api.put("/v3/open_channels/\(tag)-4/freeze", ["freeze": true]).status == 200)
            func list(_ query: String) async throws -> [String] {
                try await api.get("/v3/open_channels?limit=100&\(query)").openChannelURLs
            }
            // Newest first; case-insensitive substring of the name.
            #expect(try await list("name_contains=\(tag.uppercased())") == ["\(tag)-4", "\(tag)-2", "\(tag)-0"])
            #expect(try await list("url_contains=\(tag.uppercased())") == urls.reversed())
            #expect(try await list("url_contains=\(tag)&custom_types=\(tag)-b") == ["\(tag)-4", "\(tag)-3"])
            #expect(try await list("url_contains=\(tag)&custom_type=\(tag)-a&name_contains=dogs") == ["\(tag)-1"])
            #expect(try await list("url_contains=\(tag)&show_frozen=false").contains("\(tag)-4") == false)
            // Pages of two cover everything once.
            var seen: [String] = []
            var token = ""
            repeat {
                let page = try await api.get("/v3/open_channels?limit=2&url_contains=\(tag)&token=\(token)", as: .admin)
                seen += page.openChannelURLs
                token = page.rawJSON["next"] as? String ?? ""
            } while !token.isEmpty
            #expect(seen == urls.reversed())
            let bad = try await api.get("/v3/open_channels?token=forged")
            #expect(bad.status == 400)
            #expect(try bad.code == 400109)
        }
    }

    @Test func participantsSendAnyoneReadsOperatorsModerateMessages() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ocmsg", 3)
            let (owner, guest, reader) = (cast[0], cast[1], cast[2])
            let url = try #require(try await api.post("/v3/open_channels", [:], as: cast.session(0)).rawJSON["channel_url"] as? String)
            let messages = "/v3/open_channels/\(url)/messages"
            let refused = try await api.post(messages, ["message_type": "MESG", "user_id": guest, "message": "hi"], as: cast.session(1))
            #expect(refused.status == 403)
            #expect(try refused.code == 400108)
            let entered = try await api.put("/v3/open_channels/\(url)/enter", [:], as: cast.session(1))
            #expect(entered.status == 200, "\(entered.text)")
            #expect(entered.rawJSON["participant_count"] as? Int == 1)
            let sent = try await api.post(
                messages, ["message_type": "MESG", "user_id": guest, "message": "hi", "dedup_id": "d1"], as: cast.session(1))
            #expect(sent.status == 201, "\(sent.text)")
            #expect(sent.rawJSON["channel_type"] as? String == "open")
            let messageID = try #require(sent.rawJSON["message_id"] as? Int)
            // A retry with the same dedup_id returns the same message.
            let retry = try await api.post(
                messages, ["message_type": "MESG", "user_id": guest, "message": "hi", "dedup_id": "d1"], as: cast.session(1))
            #expect(retry.status == 200)
            #expect(retry.rawJSON["message_id"] as? Int == messageID)
            // Anyone reads the history, in it or not.
            let history = try await api.get("\(messages)?message_ts=0&next_limit=10&prev_limit=0", as: cast.session(2))
            #expect(history.status == 200)
            let listed = history.rawJSON["messages"] as? [[String: Any]] ?? []
            #expect(listed.map { $0["message_id"] as? Int } == [messageID])
            #expect(listed.first?["channel_type"] as? String == "open")
            #expect(try await api.get("\(messages)/\(messageID)", as: cast.session(2)).rawJSON["message"] as? String == "hi")
            #expect(try await api.get("\(messages)/total_count", as: cast.session(2)).rawJSON["total"] as? Int == 1)
            // Only participants react; the sender edits; a reader neither edits nor deletes.
            #expect(
                try await api.post("\(messages)/\(messageID)/reactions", ["user_id": reader, "reaction": "+1"], as: cast.session(2)).status
                    == 403)
            #expect(
                try await api.post("\(messages)/\(messageID)/reactions", ["user_id": guest, "reaction": "+1"], as: cast.session(1)).status
                    == 200)
            let reactions =
                try await api.get("\(messages)/\(messageID)/reactions", as: cast.session(2)).rawJSON["reactions"] as? [[String: Any]]
            #expect(reactions?.first?["key"] as? String == "+1")
            #expect(
                try await api.put("\(messages)/\(messageID)", ["message": "edited"], as: cast.session(1)).rawJSON["message"] as? String
                    == "edited")
            #expect(try await api.put("\(messages)/\(messageID)", ["message": "mine"], as: cast.session(2)).status == 403)
            #expect(try await api.delete("\(messages)/\(messageID)", as: cast.session(2)).status == 403)
            let metaarray = try await api.post(
                "\(messages)/\(messageID)/sorted_metaarray", ["sorted_metaarray": [["key": "k", "value": ["v"]]]], as: cast.session(1))
            #expect((metaarray.rawJSON["sorted_metaarray"] as? [[String: Any]])?.first?["key"] as? String == "k")
            // The operator (not a participant) deletes it; the owner's admin message needs no participant.
            #expect(try await api.delete("\(messages)/\(messageID)", as: cast.session(0)).status == 200)
            #expect(try await api.get("\(messages)/\(messageID)", as: cast.session(2)).status == 404)
            #expect(try await api.post(messages, ["message_type": "ADMM", "message": "notice"]).status == 201)
            #expect(owner != guest)
            // Frozen: the participant is refused, an operator who entered is not.
            #expect(try await api.put("/v3/open_channels/\(url)/freeze", ["freeze": true], as: cast.session(0)).status == 200)
            let frozen = try await api.post(messages, ["message_type": "MESG", "user_id": guest, "message": "x"], as: cast.session(1))
            #expect(try frozen.code == 900050)
            #expect(try await api.put("/v3/open_channels/\(url)/enter", [:], as: cast.session(0)).status == 200)
            #expect(
                try await api.post(messages, ["message_type": "MESG", "user_id": owner, "message": "op"], as: cast.session(0)).status == 201
            )
            // Deleting the channel takes its messages along.
            #expect(try await api.delete("/v3/open_channels/\(url)").status == 200)
            #expect(try await api.get("\(messages)?message_ts=0&next_limit=10").status == 404)
        }
    }

    @Test func anEphemeralChannelKeepsNoHistoryAndFloodProtectionHolds() async throws {
        // A clock that stands still: the four sends fall in one second however slow the machine.
        try await TestServer.withAPI({ $0.limits.messagesPerSecond = 3 }, clock: ManualClock(1_800_000_000_000).clock) { api in
            let cast = try await api.cast("ocfl", 1)
            let url = try #require(try await api.post("/v3/open_channels", ["is_ephemeral": true]).rawJSON["channel_url"] as? String)
            #expect(try await api.put("/v3/open_channels/\(url)/enter", ["user_id": cast[0]]).status == 200)
            let messages = "/v3/open_channels/\(url)/messages"
            var statuses: [Int] = []
            for index in 0..<4 {
                statuses.append(
                    try await api.post(messages, ["message_type": "MESG", "user_id": cast[0], "message": "m\(index)"], as: cast.session(0))
                        .status)
            }
            #expect(statuses.prefix(3).allSatisfy { $0 == 201 })
            #expect(statuses.last == 429)
            let history = try await api.get("\(messages)?message_ts=0&next_limit=10&prev_limit=0")
            #expect((history.rawJSON["messages"] as? [[String: Any]])?.isEmpty == true)
        }
    }

    /// Blocks in an open channel follow the 1-to-N rules (API.md §7.3): messages arrive, marked
    /// `is_blocked_by_me` for the blocker, in history and in events.
    @Test func aBlockedSendersMessagesAreMarkedForTheBlocker() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ocblk", 2)
            let url = try #require(try await api.post("/v3/open_channels", [:]).rawJSON["channel_url"] as? String)
            for index in 0..<2 { #expect(try await api.put("/v3/open_channels/\(url)/enter", [:], as: cast.session(index)).status == 200) }
            #expect(try await api.post("/v3/users/\(cast[0])/block", ["target_id": cast[1]], as: cast.session(0)).status == 200)
            let socket = try await api.events(cast.tokens[cast[0]]!)
            _ = try await socket.hello()
            let messages = "/v3/open_channels/\(url)/messages"
            #expect(
                try await api.post(messages, ["message_type": "MESG", "user_id": cast[1], "message": "hey"], as: cast.session(1)).status
                    == 201)
            let event = try await socket.waitForEvent("message_received")
            #expect(((event["data"] as? [String: Any])?["user"] as? [String: Any])?["is_blocked_by_me"] as? Bool == true)
            let history = try await api.get("\(messages)?message_ts=0&next_limit=5&prev_limit=0", as: cast.session(0))
            let sender = (history.rawJSON["messages"] as? [[String: Any]])?.first?["user"] as? [String: Any]
            #expect(sender?["is_blocked_by_me"] as? Bool == true)
            let unblocked = try await api.get("\(messages)?message_ts=0&next_limit=5&prev_limit=0", as: cast.session(1))
            #expect(
                ((unblocked.rawJSON["messages"] as? [[String: Any]])?.first?["user"] as? [String: Any])?["is_blocked_by_me"] as? Bool
                    == false)
            socket.close()
        }
    }
}

extension APIResponse {
    /// The channel URLs of an open channel list.
    var openChannelURLs: [String] {
        (rawJSON["channels"] as? [[String: Any]] ?? []).compactMap { $0["channel_url"] as? String }
    }
}
