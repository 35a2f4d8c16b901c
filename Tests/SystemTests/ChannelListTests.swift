import Foundation
import Testing

/// API.md §3.8–3.9: channel lists, every filter and order, keyset pagination.
@Suite struct ChannelListTests {
    /// Pages through `path` with `limit` and returns every channel url seen.
    private func collect(_ api: API, _ path: String, limit: Int, as credential: Credential = .admin) async throws -> [String] {
        var seen: [String] = []
        var token = ""
        var pages = 0
        repeat {
            let response = try await api.get("\(path)\(path.contains("?") ? "&" : "?")limit=\(limit)&token=\(token)", as: credential)
            #expect(response.status == 200, "\(response.text)")
            let page = try response.decode(ChannelList.self)
            #expect(page.items.count <= limit)
            seen += page.items.map(\.channelURL)
            token = page.next
            pages += 1
        } while !token.isEmpty && pages < 1000
        return seen
    }

    @Test func pagingThrough250ChannelsInEveryOrderNeitherRepeatsNorSkips() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await TestServer.withAPI(clock: time.clock) { api in
            let users = try await api.cast("paging", 1)
            var created: [String] = []
            for index in 0..<250 {
                let url = try await api.createChannel([
                    "user_ids": [users[0]], "name": "Room \(String(format: "%03d", (index * 7) % 250))",
                    "custom_type": index % 2 == 0 ? "even" : "odd"
                ])
                created.append(url)
                // Distinct creation times keep "newest first" a strict order for the assertion.
                time.advance(by: 1)
                if index % 3 == 0 {
                    #expect(
                        try await api.put("/v3/group_channels/\(url)/metadata", ["metadata": ["rank": String(format: "%03d", 250 - index)]])
                            .status == 200)
                }
            }
            let base = "/v3/users/\(users[0])/my_group_channels"
            for order in ["latest_last_message", "chronological", "channel_name_alphabetical", "metadata_value_alphabetical"] {
                let seen = try await collect(api, "\(base)?order=\(order)&metadata_order_key=rank", limit: 17, as: users.session(0))
                #expect(seen.count == 250, "\(order)")
                #expect(Set(seen) == Set(created), "\(order)")
            }
            let newestFirst = try await collect(api, "\(base)?order=chronological", limit: 100)
            #expect(newestFirst == created.reversed())
            let byName = try await collect(api, "\(base)?order=channel_name_alphabetical", limit: 100)
            let names = try await withThrowingTaskGroup(of: (String, String).self) { group in
                for url in byName.prefix(5) {
                    group.addTask { (url, try await api.get("/v3/group_channels/\(url)").decode(ChannelBody.self).name) }
                }
                return try await group.reduce(into: [String: String]()) { $0[$1.0] = $1.1 }
            }
            #expect(byName.prefix(5).map { names[$0]! } == ["Room 000", "Room 001", "Room 002", "Room 003", "Room 004"])
            let byRank = try await collect(api, "\(base)?order=metadata_value_alphabetical&metadata_order_key=rank", limit: 50)
            #expect(byRank.first == created[249])
            #expect(Set(byRank.suffix(166)) == Set(created.enumerated().filter { $0.offset % 3 != 0 }.map(\.element)))
            let admin = try await collect(
                api, "/v3/group_channels?custom_types=even&members_include_in=\(users[0])&order=chronological", limit: 30)
            #expect(admin == created.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).reversed())
        }
    }

    @Test func pagesStayCorrectWhileChannelsAreCreatedBetweenThem() async throws {
        let time = ManualClock(1_800_000_000_000)
        try await TestServer.withAPI(clock: time.clock) { api in
            let users = try await api.cast("pagingrace", 1)
            var original: [String] = []
            for _ in 0..<30 {
                original.append(try await api.createChannel(["user_ids": [users[0]]]))
                // Each a millisecond newer than the one before; those made while paging are newer than all.
                time.advance(by: 1)
            }
            var seen: [String] = []
            var token = ""
            repeat {
                let page = try await api.get("/v3/users/\(users[0])/my_group_channels?order=chronological&limit=7&token=\(token)")
                let channels = try page.decode(ChannelList.self)
                seen += channels.items.map(\.channelURL)
                token = channels.next
                _ = try await api.createChannel(["user_ids": [users[0]]])
            } while !token.isEmpty
            #expect(Set(seen).count == seen.count)
            #expect(Array(seen.prefix(30)) == original.reversed())
        }
    }

    @Test func filtersSelectTheRightChannels() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("filters", 4)
            let me = users[0]
            let pair = try await api.createChannel(["user_ids": [me, users[1]], "is_distinct": true, "custom_type": "dm", "name": "Pair"])
            let trio = try await api.createChannel(["user_ids": [me, users[1], users[2]], "custom_type": "group", "name": "Trio chat"])
            let open = try await api.createChannel(["user_ids": [me], "is_public": true, "custom_type": "grp-public", "name": "Lobby"])
            let big = try await api.createChannel(["user_ids": [me, users[3]], "is_super": true, "name": "Town hall"])
            #expect(try await api.put("/v3/users/\(users[3])/channel_invitation_preference", ["auto_accept": false]).status == 200)
            let invitedTo = try await api.createChannel(["user_ids": [me, users[3]], "inviter_id": me, "name": "Invite"])
            let base = "/v3/users/\(me)/my_group_channels?order=chronological"
            func urls(_ query: String, as credential: Credential = .admin) async throws -> Set<String> {
                let response = try await api.get(base + query, as: credential)
                #expect(response.status == 200, "\(query): \(response.text)")
                return try Set(response.channelURLs)
            }
            let all: Set = [pair, trio, open, big, invitedTo]
            #expect(try await urls("", as: users.session(0)) == all)
            #expect(try await urls("&members_exactly_in=\(users[1])") == [pair])
            #expect(try await urls("&members_include_in=\(users[1]),\(users[2])&query_type=AND") == [trio])
            #expect(try await urls("&members_include_in=\(users[2]),\(users[3])&query_type=OR") == [trio, big, invitedTo])
            #expect(try await urls("&custom_types=dm,group") == [pair, trio])
            #expect(try await urls("&custom_type_startswith=gr") == [trio, open])
            #expect(try await urls("&name_contains=CHAT") == [trio])
            #expect(try await urls("&channel_urls=\(pair),\(open)") == [pair, open])
            #expect(try await urls("&super_mode=super") == [big])
            #expect(try await urls("&super_mode=nonsuper") == all.subtracting([big]))
            #expect(try await urls("&public_mode=public") == [open])
            #expect(try await urls("&public_mode=private") == all.subtracting([open]))
            #expect(try await urls("&distinct_mode=distinct") == [pair])
            #expect(try await urls("&distinct_mode=nondistinct") == all.subtracting([pair]))
            #expect(try await urls("&show_empty=false") == [])
            let users3 = try await api.get("/v3/users/\(users[3])/my_group_channels?member_state_filter=invited_only")
            #expect(try Set(users3.channelURLs) == [invitedTo])
            let joined3 = try await api.get("/v3/users/\(users[3])/my_group_channels?member_state_filter=joined_only")
            #expect(try Set(joined3.channelURLs) == [big])
            let created = try await api.get("/v3/group_channels/\(trio)").decode(ChannelBody.self).createdAt
            #expect(try await urls("&created_after=\(created - 1)&created_before=\(created + 1)").contains(trio))
            #expect(try await urls("&created_before=\(created)").isSubset(of: [pair, trio]))
        }
    }

    @Test(arguments: [
        ("order=sideways", 400111), ("hidden_mode=maybe", 400111), ("super_mode=huge", 400111), ("query_type=XOR", 400111),
        ("show_empty=perhaps", 400104), ("created_after=yesterday", 400101), ("limit=0", 400111), ("token=zzz", 400109),
        ("order=metadata_value_alphabetical", 400105)
    ])
    func badListParametersAreRejected(query: String, code: Int) async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("badlist", 1)
            let response = try await api.get("/v3/users/\(users[0])/my_group_channels?\(query)", as: users.session(0))
            #expect(response.status == 400)
            #expect(try response.code == code)
        }
    }

    @Test func listsAreOnlyForTheUserThemselfOrTheAdmin() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("mylist", 2)
            #expect(try await api.get("/v3/users/\(users[1])/my_group_channels", as: users.session(0)).status == 403)
            #expect(try await api.get("/v3/users/\(users[1])/my_group_channels", as: .none).status == 401)
            let token = try await api.get("/v3/users/\(users[0])/my_group_channels?limit=1", as: users.session(0))
            #expect(token.status == 200)
        }
    }

    /// `show_member` on the lists, as Sendbird's channel-list screens ask for it: each channel's
    /// members (no receipts); a session user sees them in their own channels only.
    @Test func listsShowMembersWhenAsked() async throws {
        try await TestServer.withAPI { api in
            let users = try await api.cast("listmembers", 3)
            let chat = try await api.createChannel(["user_ids": [users[0], users[1]]])
            let lobby = try await api.createChannel(["user_ids": [users[2]], "is_public": true, "name": "Lobby \(users[2])"])
            func members(_ path: String, as credential: Credential) async throws -> [String: [String]?] {
                let response = try await api.get(path, as: credential)
                #expect(response.status == 200, "\(response.text)")
                let channels = response.rawJSON["channels"] as? [[String: Any]] ?? []
                return Dictionary(
                    uniqueKeysWithValues: channels.map { channel in
                        (
                            channel["channel_url"] as? String ?? "",
                            (channel["members"] as? [[String: Any]])?.map { $0["user_id"] as? String ?? "" }.sorted()
                        )
                    })
            }
            let mine = "/v3/users/\(users[0])/my_group_channels"
            #expect(try await members("\(mine)?show_member=true", as: users.session(0)) == [chat: [users[0], users[1]].sorted()])
            #expect(try await members(mine, as: users.session(0)) == [chat: nil])
            let nicknames = try await api.get("\(mine)?show_member=true", as: users.session(0)).rawJSON["channels"] as? [[String: Any]]
            #expect(
                (nicknames?.first?["members"] as? [[String: Any]])?.allSatisfy { $0["nickname"] is String && $0["read_ts"] == nil } == true)
            let all = "/v3/group_channels?show_member=true&name_contains=Lobby%20\(users[2])"
            #expect(try await members(all, as: users.session(0)) == [lobby: nil], "not a member: no members")
            #expect(try await members(all, as: .admin) == [lobby: [users[2]]])
            #expect(try await api.get("\(mine)?show_member=yes", as: users.session(0)).status == 400)
        }
    }
}
