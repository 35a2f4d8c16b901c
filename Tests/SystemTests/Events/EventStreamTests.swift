import Foundation
import Postgres
import Synchronization
import Testing

/// The event stream (API.md §6.1–6.3) through real WebSockets.
@Suite struct EventStreamTests {
    @Test func helloThenMessagesReachEveryJoinedMemberAndNobodyElse() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ev", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let member = try await api.events(cast.tokens[cast[1]]!)
            let outsider = try await api.events(cast.tokens[cast[2]]!)
            let hello = try await member.hello()
            #expect(hello["ping_interval_ms"] as? Int == 30000)
            #expect(hello["connection_id"] as? String != nil)
            let sent = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "hi"], as: cast.session(0)
            )
            #expect(sent.status == 201)
            let event = try await member.waitForEvent("message_received")
            #expect(event["channel_url"] as? String == channel)
            #expect(event["channel_type"] as? String == "group")
            let data = try #require(event["data"] as? [String: Any])
            #expect(data["message"] as? String == "hi")
            #expect((data["user"] as? [String: Any])?["user_id"] as? String == cast[0])
            #expect((event["event_id"] as? Int ?? 0) > (hello["last_event_id"] as? Int ?? 0))
            // The member's unread count moved to 1. (A count of 0 may come first: the joining
            // event moves counts too, and reaches a socket that subscribed before it was read.)
            _ = try await member.waitFor { frame in
                frame["type"] as? String == "unread_count_changed"
                    && (frame["data"] as? [String: Any])?["unread_message_count"] as? Int == 1
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(outsider.events.isEmpty)
            member.close()
            outsider.close()
        }
    }

    @Test func unreadCountsGoOutAtMostOncePerIntervalWithTheLatestCounts() async throws {
        try await TestServer.withAPI({ $0.events.unreadInterval = .seconds(4) }) { api in
            let cast = try await api.cast("evu", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let member = try await api.events(cast.tokens[cast[1]]!)
            _ = try await member.hello()
            // Whatever the channel's creation moved has gone out after one interval.
            try await Task.sleep(for: .seconds(4.5))
            let quiet = member.frames.count
            func send(_ text: String) async throws {
                let sent = try await api.post(
                    "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": text],
                    as: cast.session(0))
                #expect(sent.status == 201)
            }
            func unreadCount(_ frame: [String: Any]) -> Int? {
                guard frame["type"] as? String == "unread_count_changed" else { return nil }
                return (frame["data"] as? [String: Any])?["unread_message_count"] as? Int
            }
            try await send("one")
            _ = try await member.waitFor { unreadCount($0) == 1 }
            for text in ["two", "three", "four"] { try await send(text) }
            _ = try await member.waitFor { unreadCount($0) == 4 }
            // The moves after the first went out with the latest count, never sooner than the
            // interval after the frame before (by the server's stamps: how fast the sends and
            // frames travel under load does not matter). Every 200 ms, as before, would fail this.
            let frames = member.frames.dropFirst(quiet).filter { unreadCount($0) != nil }
            #expect(frames.last.flatMap(unreadCount) == 4)
            let stamps = frames.compactMap { $0["ts"] as? Int }
            #expect(stamps.count == frames.count && frames.count >= 2)
            for (earlier, later) in zip(stamps, stamps.dropFirst()) {
                #expect(later - earlier >= 3500, "\(stamps)")
            }
            member.close()
        }
    }

    @Test func aBrowserAuthenticatesInItsFirstFrameOrIsClosedWith4001() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evb", 1)
            let port = try #require(api.client.port)
            let browser = EventSocket(port: port, token: nil)
            try browser.send(["type": "auth", "token": cast.tokens[cast[0]]!])
            _ = try await browser.hello()
            browser.close()
            let wrong = EventSocket(port: port, token: nil)
            try wrong.send(["type": "auth", "token": "nope"])
            #expect(try await wrong.closed() == 4001)
            let badHeader = EventSocket(port: port, token: "x")
            #expect(try await badHeader.closed() == 4001)
        }
    }

    @Test func revokingTheTokensClosesAnOpenSocketWith4001() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evr", 1)
            let socket = try await api.events(cast.tokens[cast[0]]!)
            #expect(try await api.delete("/v3/users/\(cast[0])/token").status == 200)
            #expect(try await socket.closed() == 4001)
        }
    }

    @Test func aSocketClosesWith4001WhenItsSessionTokenExpires() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("eve", 1)
            // Long enough for the socket to open first, also under load.
            let expiresAt = Int(Date().timeIntervalSince1970 * 1000) + 5000
            let issued = try await api.post("/v3/users/\(cast[0])/token", ["expires_at": expiresAt])
            let socket = try await api.events(try issued.decode(SessionTokenBody.self).token)
            #expect(try await socket.closed() == 4001)
            // Not before the expiry (the wall clock, as the token's).
            #expect(Int(Date().timeIntervalSince1970 * 1000) >= expiresAt - 50)
        }
    }

    @Test func deactivationClosesTheSocket() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evd", 1)
            let socket = try await api.events(cast.tokens[cast[0]]!)
            #expect(try await api.put("/v3/users/\(cast[0])", ["is_active": false]).status == 200)
            #expect(try await socket.closed() == 4001)
        }
    }

    @Test func aPlainGETIsToldToUpgrade() async throws {
        try await TestServer.withAPI { api in
            let response = try await api.get("/v3/events")
            #expect(response.status == 426)
        }
    }

    /// Every upgrade that is not a well-formed WebSocket upgrade of the stream is answered as plain
    /// HTTP and the connection closes after it: missing or wrong WebSocket headers and another
    /// protocol on `/v3/events` get the documented 426 body, another path its usual answer. An
    /// upgrade sent after another request on the same connection (NIO upgrades a connection's
    /// first request only) gets the 426 too.
    @Test func incompleteForeignAndLateUpgradesAreAnswered() async throws {
        try await TestServer.withAPI { api in
            let upgrade = "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            let handshake = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            let firstRequests = [
                ("GET /v3/events", upgrade, "426", "400111"),
                ("GET /v3/events", "Upgrade: h2c\r\nConnection: Upgrade\r\n", "426", "400111"),
                (
                    "GET /v3/events", upgrade + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n", "426",
                    "400111"
                ),
                ("GET /v3/users", upgrade + handshake, "401", "400401")
            ]
            for (line, headers, status, code) in firstRequests {
                let connection = try api.connection()
                connection.send("\(line) HTTP/1.1\r\nHost: x\r\n\(headers)\r\n")
                let answer = await connection.readUntilClosed(timeout: .seconds(10))
                #expect(answer.closed, "\(line) \(headers)")
                #expect(answer.text.hasPrefix("HTTP/1.1 \(status)"), "\(answer.text)")
                #expect(answer.text.contains("\"code\":\(code)"), "\(answer.text)")
            }
            let late = try api.connection()
            late.send("GET /ready HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = await late.read(timeout: .seconds(10)) { $0.contains("ready") }
            late.send("GET /v3/events HTTP/1.1\r\nHost: x\r\n\(upgrade)\(handshake)\r\n")
            let second = await late.read(timeout: .seconds(10)) { $0.contains("400111") }
            #expect(second.text.contains("HTTP/1.1 426"), "\(second.text)")
        }
    }

    @Test func membershipEventsReachTheRightUsers() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evm", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let first = try await api.events(cast.tokens[cast[0]]!)
            let leaver = try await api.events(cast.tokens[cast[1]]!)
            let newcomer = try await api.events(cast.tokens[cast[2]]!)
            #expect(try await api.post("/v3/group_channels/\(channel)/invite", ["user_ids": [cast[2]]]).status == 200)
            let joined = try await first.waitForEvent("member_joined")
            let users = (joined["data"] as? [String: Any])?["users"] as? [[String: Any]]
            #expect(users?.first?["user_id"] as? String == cast[2])
            _ = try await newcomer.waitForEvent("member_joined")
            #expect(try await api.put("/v3/group_channels/\(channel)/leave", ["user_ids": [cast[1]]]).status == 200)
            _ = try await leaver.waitForEvent("member_left")
            _ = try await first.waitForEvent("member_left")
            // A member who left hears nothing more.
            _ = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "after"])
            _ = try await newcomer.waitForEvent("message_received")
            #expect(leaver.events(ofType: "message_received").isEmpty)
            for socket in [first, leaver, newcomer] { socket.close() }
        }
    }

    @Test func replayAfterAReconnectMissesNothingAndRepeatsNothing() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evp", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let token = cast.tokens[cast[1]]!
            let first = try await api.events(token)
            for index in 0..<5 {
                _ = try await api.post(
                    "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "m\(index)"])
            }
            _ = try await first.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "m4" }
            let seen = first.events(ofType: "message_received")
            let last = try #require(seen.compactMap { $0["event_id"] as? Int }.max())
            let cut = seen.compactMap { $0["event_id"] as? Int }.sorted()[2]
            first.close()
            // Sends while nobody is connected, and while the second socket replays.
            let sender = Task {
                for index in 5..<15 {
                    _ = try await api.post(
                        "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "m\(index)"])
                }
            }
            try await Task.sleep(for: .milliseconds(50))
            let second = try await api.events(token, after: Int64(cut))
            try await sender.value
            _ = try await second.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "m14" }
            try await Task.sleep(for: .milliseconds(200))
            let texts = second.events(ofType: "message_received").compactMap { ($0["data"] as? [String: Any])?["message"] as? String }
            #expect(texts == (3..<15).map { "m\($0)" })
            let ids = second.events.compactMap { $0["event_id"] as? Int }
            #expect(ids == ids.sorted())
            #expect(Set(ids).count == ids.count)
            #expect(ids.allSatisfy { $0 > cut })
            _ = last
            second.close()
        }
    }

    @Test func anAfterTooOldOrUnknownAsksForAResyncAndTheStreamGoesOn() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evs", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            // An id this server never handed out (a restored database, another deployment).
            let unknown: Int64 = 999_999_999_999
            let socket = EventSocket(port: try #require(api.client.port), token: cast.tokens[cast[1]]!, query: "after=\(unknown)")
            _ = try await socket.waitForEvent("resync_required")
            let hello = try await socket.hello()
            #expect((hello["last_event_id"] as? Int ?? .max) < Int(unknown))
            // The stream is live from where the server is, not from the unknown id.
            _ = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message_type": "MESG", "user_id": cast[0], "message": "still here"])
            _ = try await socket.waitForEvent("message_received")
            socket.close()
        }
    }

    @Test func aRolledBackChangeProducesNoEvent() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("evx", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let socket = try await api.events(cast.tokens[cast[1]]!)
            // Operators must be members: the whole request fails and rolls back.
            let refused = try await api.post("/v3/group_channels/\(channel)/operators", ["operator_ids": [cast[1], "nobody-here"]])
            #expect(refused.status == 400)
            _ = try await api.post("/v3/group_channels/\(channel)/operators", ["operator_ids": [cast[1]]])
            let changed = try await socket.waitForEvent("operators_changed")
            #expect(socket.events(ofType: "operators_changed").count == 1)
            #expect(((changed["data"] as? [String: Any])?["users"] as? [[String: Any]])?.count == 1)
            socket.close()
        }
    }

    /// Pings every `pingInterval`; a peer that answers stays, one silent for `silenceLimit` goes.
    @Test func aSilentPeerIsDroppedAndOneThatAnswersPingsStays() async throws {
        try await TestServer.withAPI({
            $0.events.pingInterval = .milliseconds(250)
            $0.events.silenceLimit = .seconds(3)
        }) { api in
            let cast = try await api.cast("ping", 2)
            // The answering peer sends a pong (masked, empty) every 250 ms from a thread of its
            // own, so that a busy test process does not make it late.
            let answering = try api.rawEventStream(cast.tokens[cast[0]]!)
            _ = await answering.read(timeout: .seconds(10)) { $0.contains("\"ping_interval_ms\"") }
            let answers = Flag()
            DispatchQueue.global().async {
                while answers.isOn.load(ordering: .relaxed) {
                    answering.send([0x8A, 0x80, 1, 2, 3, 4])
                    usleep(250_000)
                }
            }
            defer { answers.isOn.store(false, ordering: .relaxed) }
            let silent = try api.rawEventStream(cast.tokens[cast[1]]!)
            let started = ContinuousClock.now
            let heard = await silent.readUntilClosed(timeout: .seconds(20))
            let dropped = ContinuousClock.now - started
            #expect(heard.closed)
            #expect(dropped >= .seconds(3), "dropped after \(dropped)")
            // Empty pings (0x89 0x00, decoded as U+FFFD and NUL) came before the drop; compared as
            // bytes, since the text around them is frame headers rather than text.
            let bytes = Array(heard.text.utf8)
            let ping: [UInt8] = [0xEF, 0xBF, 0xBD, 0x00]
            #expect(bytes.indices.contains { bytes[$0...].starts(with: ping) })
            #expect(await answering.read(timeout: .milliseconds(200)) { _ in false }.closed == false)
            #expect(try await api.get("/v3/users/\(cast[0])").rawJSON["is_online"] as? Bool == true)
            #expect(try await eventually { try await api.get("/v3/users/\(cast[1])").rawJSON["is_online"] as? Bool == false })
        }
    }

    /// A client's message may come in fragments; one longer than 16 KiB closes the socket (1009).
    @Test func clientFramesMayBeFragmentedAndAreLimitedTo16KiB() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("frag", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let watcher = try await api.events(cast.tokens[cast[1]]!)
            _ = try await watcher.hello()
            let raw = try api.rawEventStream(cast.tokens[cast[0]]!)
            _ = await raw.read(timeout: .seconds(10)) { $0.contains("\"ping_interval_ms\"") }
            let typing = Array(#"{"type":"typing_start","channel_url":"\#(channel)"}"#.utf8)
            raw.send(Self.clientFrame(opcode: 0x1, fin: false, Array(typing[..<10])))
            raw.send(Self.clientFrame(opcode: 0x0, fin: true, Array(typing[10...])))
            let started = try await watcher.waitForEvent("typing_started")
            #expect(((started["data"] as? [String: Any])?["user"] as? [String: Any])?["user_id"] as? String == cast[0])
            raw.send(Self.clientFrame(opcode: 0x1, fin: true, Array(repeating: UInt8(ascii: "x"), count: 20_000)))
            let rest = await raw.readUntilClosed(timeout: .seconds(10))
            #expect(rest.closed)
            // The close frame, 0x88 0x02 then 1009 (0x03 0xF1), as its bytes decode.
            let bytes = Array(rest.text.utf8)
            let close: [UInt8] = [0xEF, 0xBF, 0xBD, 0x02, 0x03]
            #expect(bytes.indices.contains { bytes[$0...].starts(with: close) })
            watcher.close()
        }
    }

    /// A client's ping is answered with a pong carrying its payload; an unmasked client frame is
    /// a protocol error (1002, RFC 6455 §5.1).
    @Test func pingsAreAnsweredAndUnmaskedFramesRefused() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pong", 1)
            let raw = try api.rawEventStream(cast.tokens[cast[0]]!)
            _ = await raw.read(timeout: .seconds(10)) { $0.contains("\"ping_interval_ms\"") }
            raw.send(Self.clientFrame(opcode: 0x9, fin: true, Array("knock".utf8)))
            let pong = "\u{FFFD}\u{05}knock"
            #expect(await raw.read(timeout: .seconds(10)) { $0.contains(pong) }.text.contains(pong))
            raw.send([0x81, 0x02] + Array("hi".utf8))
            let rest = await raw.readUntilClosed(timeout: .seconds(10))
            #expect(rest.closed)
            // 0x88, a length, then 1002 (0x03 0xEA), as its bytes decode.
            let bytes = Array(rest.text.utf8)
            #expect(bytes.indices.contains { bytes[$0...].starts(with: [0x03, 0xEF, 0xBF, 0xBD]) })
        }
    }

    /// Many sockets closing at once (a proxy dropping its connections) are recorded together:
    /// every user is offline soon after. (Not the heartbeat's doing: it leaves a socket row younger
    /// than an instance's death limit, 20 s, to the close that will come.)
    @Test func manySocketsClosingAtOnceLeaveTheirUsersOffline() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("herd", 120)
            // Opened 20 at a time, so that a test run busy with other suites does not make the
            // opening the thing tested.
            var sockets: [RawConnection] = []
            for group in stride(from: 0, to: cast.ids.count, by: 20) {
                let opened = try cast.ids[group..<group + 20].map { try api.rawEventStream(cast.tokens[$0]!) }
                for socket in opened {
                    let hello = await socket.read(timeout: .seconds(30)) { $0.contains("\"ping_interval_ms\"") }
                    #expect(hello.text.contains("\"ping_interval_ms\""))
                }
                sockets += opened
            }
            #expect(try await api.get("/v3/users/\(cast[119])").rawJSON["is_online"] as? Bool == true)
            for socket in sockets { socket.hangUp() }
            let database = try PostgresConnection(conninfo: TestServer.databaseURL, logger: TestServer.logger)
            #expect(
                try await eventually(within: .seconds(15)) {
                    try database.query("SELECT count(*) AS n FROM event_sockets WHERE user_id = ANY($1::text[])", [cast.ids])[0].decode(
                        "n", as: Int64.self) == 0
                })
            for index in [0, 59, 119] {
                #expect(try await api.get("/v3/users/\(cast[index])").rawJSON["is_online"] as? Bool == false)
            }
        }
    }

    /// A masked client frame (RFC 6455 §5.2).
    static func clientFrame(opcode: UInt8, fin: Bool, _ payload: [UInt8]) -> [UInt8] {
        let mask: [UInt8] = [0x11, 0x22, 0x33, 0x44]
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }
}

private final class Flag: Sendable {
    let isOn = Atomic<Bool>(true)
}
