import Foundation
import Postgres
import Testing

/// Presence and typing (API.md §6.5) through real sockets.
@Suite struct TypingAndPresenceTests {
    @Test func isOnlineFollowsTheSocketsInUsersAndMembers() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pres", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            func user() async throws -> [String: Any] { try await api.get("/v3/users/\(cast[1])").rawJSON }
            func member() async throws -> [String: Any]? {
                let members = try await api.get("/v3/group_channels/\(channel)/members").rawJSON["members"] as? [[String: Any]]
                return members?.first { $0["user_id"] as? String == cast[1] }
            }
            #expect(try await user()["is_online"] as? Bool == false)
            let first = try await api.events(cast.tokens[cast[1]]!)
            let second = try await api.events(cast.tokens[cast[1]]!)
            #expect(try await user()["is_online"] as? Bool == true)
            #expect(try await user()["last_seen_at"] as? Int == 0)
            #expect(try await member()?["is_online"] as? Bool == true)
            // Online while any socket is open.
            first.close()
            _ = try await first.closed()
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await user()["is_online"] as? Bool == true)
            let before = Int(Date.now.timeIntervalSince1970 * 1000)
            second.close()
            #expect(try await eventually { try await user()["is_online"] as? Bool == false })
            #expect((try await user()["last_seen_at"] as? Int ?? 0) >= before - 1000)
            #expect(try await member()?["is_online"] as? Bool == false)
        }
    }

    /// A close whose write failed (the database was busy) leaves a socket row behind; the
    /// instance's heartbeat removes rows that no live socket backs.
    @Test func aSocketRowNoLiveSocketBacksIsRemovedByTheHeartbeat() async throws {
        try await TestServer.withAPI({ $0.events.heartbeatInterval = .milliseconds(200) }) { api in
            let cast = try await api.cast("recon", 2)
            let socket = try await api.events(cast.tokens[cast[0]]!)
            let connection = try PostgresConnection(conninfo: try TestServer.databaseURL, logger: TestServer.logger)
            let instance: String = try connection.query("SELECT instance_id FROM event_sockets WHERE user_id = $1", [cast[0]])[0]
                .decode("instance_id")
            _ = try connection.query(
                "INSERT INTO event_sockets (socket_id, user_id, instance_id, connected_at) VALUES ($1, $2, $3, 0)",
                [instance + "-stale", cast[1], instance])
            #expect(try await eventually { try await api.get("/v3/users/\(cast[1])").rawJSON["is_online"] as? Bool == false })
            #expect((try await api.get("/v3/users/\(cast[1])").rawJSON["last_seen_at"] as? Int ?? 0) > 0)
            // The live socket's row stays.
            #expect(try await api.get("/v3/users/\(cast[0])").rawJSON["is_online"] as? Bool == true)
            socket.close()
        }
    }

    @Test func typingOverRESTAndFramesReachesTheOtherMembersAndEndsOnSend() async throws {
        // Starts follow each other quickly here; the throttle has a test of its own.
        try await TestServer.withAPI({ $0.events.typingThrottle = .milliseconds(50) }) { api in
            let cast = try await api.cast("typ", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let typist = try await api.events(cast.tokens[cast[0]]!)
            let reader = try await api.events(cast.tokens[cast[1]]!)
            let outsider = try await api.events(cast.tokens[cast[2]]!)
            let path = "/v3/group_channels/\(channel)/typing"
            #expect(try await api.post(path, [:], as: cast.session(0)).status == 200)
            let started = try await reader.waitForEvent("typing_started")
            #expect(started["channel_url"] as? String == channel)
            #expect(((started["data"] as? [String: Any])?["user"] as? [String: Any])?["user_id"] as? String == cast[0])
            #expect(started["event_id"] == nil)
            // Sending ends it.
            _ = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "done"])
            _ = try await reader.waitForEvent("typing_ended")
            // The socket frames do the same, and the DELETE ends it.
            try typist.send(["type": "typing_start", "channel_url": channel])
            #expect(
                try await eventually { reader.frames.filter { $0["type"] as? String == "typing_started" }.count == 2 },
                "typist: \(typist.frames), reader: \(reader.frames)")
            #expect(try await api.send(.delete, path, json: ["user_ids": [cast[0]]]).status == 200)
            #expect(try await eventually { reader.frames.filter { $0["type"] as? String == "typing_ended" }.count == 2 })
            // Only joined members type, only for themselves.
            #expect(try await api.post(path, [:], as: cast.session(2)).status == 404)
            #expect(try await api.post(path, ["user_ids": [cast[1]]], as: cast.session(0)).status == 403)
            #expect(try await api.post(path, ["user_ids": [cast[2]]]).status == 403)
            #expect(try await api.post("/v3/group_channels/nope-\(UUID())/typing", ["user_ids": [cast[0]]]).status == 404)
            try typist.send(["type": "typing_start", "channel_url": "nope"])
            let error = try await typist.waitForEvent("error")
            #expect(error["code"] as? Int == 400201)
            try await Task.sleep(for: .milliseconds(200))
            #expect(outsider.frames.filter { ($0["type"] as? String ?? "").hasPrefix("typing") }.isEmpty)
            for socket in [typist, reader, outsider] { socket.close() }
        }
    }

    /// With an expiry far beyond the test, only the closing socket can end the typing.
    @Test func typingEndsWhenTheTypistsLastSocketCloses() async throws {
        try await TestServer.withAPI({ $0.events.typingExpiry = .seconds(600) }) { api in
            let cast = try await api.cast("typc", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let reader = try await api.events(cast.tokens[cast[1]]!)
            let typist = try await api.events(cast.tokens[cast[0]]!)
            try typist.send(["type": "typing_start", "channel_url": channel])
            _ = try await reader.waitForEvent("typing_started")
            typist.close()
            _ = try await reader.waitForEvent("typing_ended")
            reader.close()
        }
    }

    @Test func typingExpires() async throws {
        try await TestServer.withAPI({
            $0.events.typingExpiry = .seconds(1)
            $0.events.typingThrottle = .milliseconds(50)
        }) { api in
            let cast = try await api.cast("typx", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let reader = try await api.events(cast.tokens[cast[1]]!)
            let path = "/v3/group_channels/\(channel)/typing"
            let start = ContinuousClock.now
            #expect(try await api.post(path, [:], as: cast.session(0)).status == 200)
            _ = try await reader.waitForEvent("typing_started")
            _ = try await reader.waitForEvent("typing_ended", within: .seconds(5))
            #expect(ContinuousClock.now - start >= .milliseconds(900))
            reader.close()
        }
    }

    @Test func startsAreThrottledPerChannel() async throws {
        // A throttle far longer than the test, however slow the machine.
        try await TestServer.withAPI({ $0.events.typingThrottle = .seconds(120) }) { api in
            let cast = try await api.cast("typt", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let reader = try await api.events(cast.tokens[cast[1]]!)
            let path = "/v3/group_channels/\(channel)/typing"
            for _ in 0..<3 {
                #expect(try await api.post(path, [:], as: cast.session(0)).status == 200)
                #expect(try await api.send(.delete, path, json: [:], as: cast.session(0)).status == 200)
            }
            try await Task.sleep(for: .milliseconds(400))
            // The first start went out; the two within the throttle did not (their ends had nothing to end).
            #expect(reader.frames.filter { $0["type"] as? String == "typing_started" }.count == 1)
            #expect(reader.frames.filter { $0["type"] as? String == "typing_ended" }.count == 1)
            reader.close()
        }
    }
}
