import Foundation
import ParleyCore
import Postgres
import Testing

extension PushWithProviders {
    /// Who receives a push (API.md §12.3), decided at dispatch, each rule through HTTP and what the
    /// providers' stand-in received.
    @Suite struct PushRuleTests: PushFixtures {
        /// Members each with one APNs token.
        static func members(_ api: API, _ prefix: String, _ count: Int) async throws -> (Cast, [String]) {
            let cast = try await api.cast(prefix, count)
            var tokens: [String] = []
            for index in 0..<count {
                let token = apnsToken()
                try await register(api, cast, index, "apns", token)
                tokens.append(token)
            }
            return (cast, tokens)
        }

        @Test func onlineMembersBlockersAndQuietMessagesGetNoPush() async throws {
            try await Self.withPushServer { api, standIn, _ in
                // 0 sends; 1 is online; 2 blocks 0; 3 has mention_only; 4 snoozes; 5 set the channel off; 6 receives all.
                let (cast, tokens) = try await Self.members(api, "pushrule", 7)
                let channel = try await api.createChannel(["user_ids": (0..<7).map { cast[$0] }])
                let socket = try await api.events(cast.tokens[cast[1]]!)
                #expect(try await api.post("/v3/users/\(cast[2])/block", ["target_id": cast[0]], as: cast.session(2)).status == 200)
                #expect(
                    try await api.put("/v3/users/\(cast[3])/push_preference", ["push_trigger_option": "mention_only"], as: cast.session(3))
                        .status == 200)
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                let snooze: [String: Any] = ["snooze_enabled": true, "snooze_start_ts": now - 60_000, "snooze_end_ts": now + 3_600_000]
                #expect(try await api.put("/v3/users/\(cast[4])/push_preference", snooze, as: cast.session(4)).status == 200)
                #expect(
                    try await api.put(
                        "/v3/users/\(cast[5])/push_preference/\(channel)", ["push_trigger_option": "off"], as: cast.session(5)
                    ).status == 200)

                try await Self.send(api, channel, "plain", as: cast.session(0))
                try await Self.send(api, channel, "silent", as: cast.session(0), ["is_silent": true])
                try await Self.send(api, channel, "no push", as: cast.session(0), ["send_push": false])
                try await Self.send(
                    api, channel, "for three", as: cast.session(0), ["mentioned_user_ids": [cast[3]], "mention_type": "users"])
                try await Self.barrier(api, standIn, channel, as: cast.session(0), tokens: [tokens[6]])

                func texts(_ index: Int) async throws -> Set<String> {
                    Set(try await Self.texts(standIn, apns: tokens[index]).filter { !$0.hasPrefix("barrier-") })
                }
                #expect(try await texts(0).isEmpty, "the sender")
                #expect(try await texts(1).isEmpty, "a member with an open socket")
                #expect(try await texts(2).isEmpty, "a member who blocks the sender")
                #expect(try await texts(3) == ["for three"], "mention_only")
                #expect(try await texts(4).isEmpty, "snoozed")
                #expect(try await texts(5).isEmpty, "the channel's option off")
                #expect(try await texts(6) == ["plain", "for three"], "silent and send_push: false push nothing")

                // The socket closes: the next message reaches them.
                socket.close()
                #expect(try await eventually { try await api.get("/v3/users/\(cast[1])").rawJSON["is_online"] as? Bool == false })
                try await Self.send(api, channel, "after closing", as: cast.session(0))
                #expect(try await eventually(within: .seconds(20)) { try await texts(1) == ["after closing"] })
            }
        }

        /// A time zone whose wall clock now satisfies `hours` (by the half hour), to test a window in
        /// someone's night against the real clock (the queue's limit is the database's clock).
        static func zone(where hours: (Double) -> Bool) throws -> String {
            let now = Date()
            return try #require(
                TimeZone.knownTimeZoneIdentifiers.first { identifier in
                    guard let zone = TimeZone(identifier: identifier) else { return false }
                    var calendar = Calendar(identifier: .gregorian)
                    calendar.timeZone = zone
                    let parts = calendar.dateComponents([.hour, .minute], from: now)
                    return hours(Double(parts.hour!) + Double(parts.minute!) / 60)
                })
        }

        @Test func doNotDisturbFollowsTheUsersTimeZoneAcrossMidnight() async throws {
            // A 22:00–07:00 window: someone where it is night now is quiet, someone where it is day is not.
            let night = try Self.zone { $0 >= 22.5 || $0 < 6.5 }
            let day = try Self.zone { $0 >= 8 && $0 < 21 }
            try await Self.withPushServer { api, standIn, _ in
                let (cast, tokens) = try await Self.members(api, "pushdnd", 3)
                let channel = try await api.createChannel(["user_ids": [cast[0], cast[1], cast[2]]])
                for (index, zone) in [(1, night), (2, day)] {
                    let window: [String: Any] = [
                        "do_not_disturb": true, "start_hour": 22, "start_min": 0, "end_hour": 7, "end_min": 0, "timezone": zone
                    ]
                    #expect(try await api.put("/v3/users/\(cast[index])/push_preference", window, as: cast.session(index)).status == 200)
                }
                try await Self.send(api, channel, "late", as: cast.session(0))
                try await Self.barrier(api, standIn, channel, as: cast.session(0), tokens: [tokens[2]])
                #expect(try await Self.texts(standIn, apns: tokens[1]).isEmpty, "quiet at night in \(night)")
                #expect(try await Self.texts(standIn, apns: tokens[2]).contains("late"), "not quiet by day in \(day)")
                // The window off again: the next message reaches them.
                #expect(
                    try await api.put("/v3/users/\(cast[1])/push_preference", ["do_not_disturb": false], as: cast.session(1)).status == 200)
                try await Self.send(api, channel, "morning", as: cast.session(0))
                #expect(try await eventually(within: .seconds(20)) { try await Self.texts(standIn, apns: tokens[1]) == ["morning"] })
            }
        }

        /// The seed's supergroup rules: from 100 members a channel pushes once per 10 minutes, except
        /// to a member who read it within the last minute.
        @Test func aLargeSupergroupPushesInWindowsExceptToWhoJustRead() async throws {
            let time = ManualClock(Int64(Date().timeIntervalSince1970 * 1000))
            try await Self.withPushServer({ _ in }, clock: time.clock) { api, standIn, database in
                let (cast, tokens) = try await Self.members(api, "pushsg", 3)
                let channel = try await api.createChannel(["user_ids": [cast[0], cast[1], cast[2]], "is_super": true])
                // 97 more members, without tokens, straight into the database (100 joined in all).
                let connection = try PostgresConnection(conninfo: database, logger: TestServer.logger)
                _ = try connection.execute(
                    """
                    INSERT INTO users (user_id, nickname, created_at) SELECT 'sgfill-' || g || '-\(channel)', 'f', 0 FROM generate_series(1, 97) g;
                    INSERT INTO group_channel_members (channel_url, user_id, state, channel_created_at, activity_at)
                        SELECT '\(channel)', 'sgfill-' || g || '-\(channel)', 'joined', 0, 0 FROM generate_series(1, 97) g;
                    UPDATE group_channels SET member_count = member_count + 97, joined_member_count = joined_member_count + 97
                        WHERE channel_url = '\(channel)';
                    """)
                try await Self.send(api, channel, "opens the window", as: cast.session(0))
                #expect(
                    try await eventually(within: .seconds(20)) { try await Self.texts(standIn, apns: tokens[2]) == ["opens the window"] })
                // Member 1 reads the channel; a minute has not passed.
                #expect(try await api.put("/v3/group_channels/\(channel)/messages/mark_as_read", [:], as: cast.session(1)).status == 200)
                time.advance(by: 20_000)
                try await Self.send(api, channel, "inside the window", as: cast.session(0))
                #expect(
                    try await eventually(within: .seconds(20)) {
                        try await Self.texts(standIn, apns: tokens[1]) == ["opens the window", "inside the window"]
                    }, "who just read gets it")
                try await Task.sleep(for: .milliseconds(500))
                #expect(try await Self.texts(standIn, apns: tokens[2]) == ["opens the window"], "the window holds the others' pushes")
                // Ten minutes after the window opened, the next message opens another.
                time.advance(by: 600_000)
                try await Self.send(api, channel, "next window", as: cast.session(0))
                #expect(
                    try await eventually(within: .seconds(20)) {
                        try await Self.texts(standIn, apns: tokens[2]) == ["opens the window", "next window"]
                    })
            }
        }
    }
}
