import Foundation
import Postgres
import Synchronization
import Testing

/// API.md §6.4 and §6.5: several instances on one database behave as one server.
@Suite struct MultiInstanceTests {
    @Test func socketsOnEachInstanceHearWhatTheOtherProduces() async throws {
        try await TestServer.withAPI { first in
            try await TestServer.withAPI { second in
                let cast = try await first.cast("multi", 2)
                let channel = try await first.createChannel(["user_ids": [cast[0], cast[1]]])
                let onFirst = try await first.events(cast.tokens[cast[0]]!)
                let onSecond = try await second.events(cast.tokens[cast[1]]!)
                let path = "/v3/group_channels/\(channel)/messages"
                _ = try await second.post(path, ["message_type": "MESG", "user_id": cast[1], "message": "from second"])
                _ = try await onFirst.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "from second" }
                _ = try await first.post(path, ["message_type": "MESG", "user_id": cast[0], "message": "from first"])
                _ = try await onSecond.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "from first" }
                // Presence and typing cross instances too.
                #expect(try await first.get("/v3/users/\(cast[1])").rawJSON["is_online"] as? Bool == true)
                #expect(try await second.post("/v3/group_channels/\(channel)/typing", [:], as: cast.session(1)).status == 200)
                _ = try await onFirst.waitForEvent("typing_started")
                onFirst.close()
                onSecond.close()
            }
        }
    }

    /// Each hub keeps channel members in memory (MemberCache): a member who leaves, or is banned,
    /// through one instance hears nothing more from the channel on a socket of the other, whose
    /// copy of the members was current a moment before.
    @Test func aMembershipChangeOnOneInstanceTakesEffectOnTheOther() async throws {
        try await TestServer.withAPI { first in
            try await TestServer.withAPI { second in
                let cast = try await first.cast("mcache", 3)
                let channel = try await first.createChannel(["user_ids": [cast[0], cast[1], cast[2]]])
                let path = "/v3/group_channels/\(channel)/messages"
                let leaver = try await second.events(cast.tokens[cast[1]]!)
                let banned = try await second.events(cast.tokens[cast[2]]!)
                // Warm the second instance's copy of the members.
                _ = try await first.post(path, ["message_type": "MESG", "user_id": cast[0], "message": "before"])
                _ = try await leaver.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "before" }
                _ = try await banned.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "before" }
                #expect(try await first.put("/v3/group_channels/\(channel)/leave", ["user_ids": [cast[1]]]).status == 200)
                #expect(try await first.post("/v3/group_channels/\(channel)/ban", ["user_id": cast[2]]).status == 200)
                _ = try await banned.waitForEvent("user_banned")
                _ = try await first.post(path, ["message_type": "MESG", "user_id": cast[0], "message": "after"])
                let watcher = try await second.events(cast.tokens[cast[0]]!)
                _ = try await first.post(path, ["message_type": "MESG", "user_id": cast[0], "message": "later"])
                _ = try await watcher.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "later" }
                try await Task.sleep(for: .milliseconds(200))
                for socket in [leaver, banned] {
                    let texts = socket.events(ofType: "message_received").compactMap {
                        ($0["data"] as? [String: Any])?["message"] as? String
                    }
                    #expect(texts == ["before"], "a former member heard \(texts)")
                }
                for socket in [leaver, banned, watcher] { socket.close() }
            }
        }
    }

    /// An instance killed with sockets open: its users count as offline once its heartbeat is
    /// overdue, and a client reconnecting elsewhere with `after` misses nothing sent meanwhile.
    @Test func aKilledInstancesClientsResumeElsewhereMissingNothing() async throws {
        // The process beats every 5 s (the default); dead after 8 s keeps the test short.
        try await TestServer.withAPI({ $0.events.instanceDeadAfter = .seconds(8) }) { survivor in
            let process = try await ServerProcess()
            defer { process.stop() }
            let cast = try await survivor.cast("crash", 2)
            let channel = try await survivor.createChannel(["user_ids": [cast[0], cast[1]]])
            let token = cast.tokens[cast[1]]!
            let doomed = EventSocket(port: process.port, token: token)
            let hello = try await doomed.hello()
            #expect(try await survivor.get("/v3/users/\(cast[1])").rawJSON["is_online"] as? Bool == true)
            let path = "/v3/group_channels/\(channel)/messages"
            _ = try await survivor.post(path, ["message_type": "MESG", "user_id": cast[0], "message": "m0"])
            let first = try await doomed.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == "m0" }
            let lastSeen = try #require(first["event_id"] as? Int)
            #expect(lastSeen > hello["last_event_id"] as? Int ?? 0)
            process.kill()
            let killedAt = ContinuousClock.now
            for index in 1...5 {
                _ = try await survivor.post(path, ["message_type": "MESG", "user_id": cast[0], "message": "m\(index)"])
            }
            #expect(
                try await eventually(within: .seconds(30), every: .milliseconds(250)) {
                    try await survivor.get("/v3/users/\(cast[1])").rawJSON["is_online"] as? Bool == false
                })
            #expect(ContinuousClock.now - killedAt < .seconds(30))
            let resumed = try await survivor.events(token, after: Int64(lastSeen))
            #expect(try await eventually { resumed.events(ofType: "message_received").count == 5 })
            try await Task.sleep(for: .milliseconds(200))
            let texts = resumed.events(ofType: "message_received").compactMap { ($0["data"] as? [String: Any])?["message"] as? String }
            #expect(texts == (1...5).map { "m\($0)" })
            resumed.close()
        }
    }

    /// SIGTERM: the instance closes its sockets with 1001 (going away) and exits 0; its users
    /// are offline at once (not after the instance's death is noticed), and a client resumes on
    /// another instance with `after`, missing nothing sent meanwhile.
    @Test func aStoppedInstanceSaysGoingAwayAndItsClientsResumeElsewhere() async throws {
        try await TestServer.withAPI { survivor in
            let process = try await ServerProcess()
            defer { process.stop() }
            let cast = try await survivor.cast("stop", 2)
            let channel = try await survivor.createChannel(["user_ids": [cast[0], cast[1]]])
            let token = cast.tokens[cast[1]]!
            let leaving = EventSocket(port: process.port, token: token)
            let hello = try await leaving.hello()
            let lastSeen = try #require(hello["last_event_id"] as? Int)
            #expect(try await survivor.get("/v3/users/\(cast[1])").rawJSON["is_online"] as? Bool == true)
            let termination = process.stop()
            #expect(termination == .exited(0))
            #expect(try await leaving.closed() == 1001)
            #expect(try await survivor.get("/v3/users/\(cast[1])").rawJSON["is_online"] as? Bool == false)
            let path = "/v3/group_channels/\(channel)/messages"
            for index in 1...3 {
                _ = try await survivor.post(path, ["message_type": "MESG", "user_id": cast[0], "message": "m\(index)"])
            }
            let resumed = try await survivor.events(token, after: Int64(lastSeen))
            #expect(try await eventually { resumed.events(ofType: "message_received").count == 3 })
            resumed.close()
        }
    }

    /// SIGTERM under load (issue 17): eight kept-alive connections sending messages when the
    /// instance is told to stop. Every request it answered was answered whole, none it committed
    /// went unanswered (a send retried on the other instance with the same `dedup_id` is new
    /// there), every committed message reached a socket on the other instance once, and the
    /// process exits 0.
    @Test func aStopUnderLoadCutsNoRequestAndLosesNoEvent() async throws {
        try await TestServer.withAPI({ $0.limits.messagesPerSecond = 0 }) { survivor in
            let process = try await ServerProcess(environment: ["PARLEY_FLOOD_MESSAGES_PER_SECOND": "0"])
            defer { process.stop() }
            let cast = try await survivor.cast("term", 2)
            let channel = try await survivor.createChannel(["user_ids": [cast[0], cast[1]]])
            let watcher = try await survivor.events(cast.tokens[cast[1]]!)
            _ = try await watcher.hello()
            let (token, port) = (cast.tokens[cast[0]]!, process.port)
            let tally = Tally()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        guard let connection = try? RawConnection(port: port) else { return }
                        for index in 0..<400 {
                            let dedup = "t\(worker)-\(index)"
                            let body = #"{"message":"m","dedup_id":"\#(dedup)"}"#
                            let sent = connection.send(
                                "POST /v3/group_channels/\(channel)/messages HTTP/1.1\r\nHost: parley\r\nSession-Token: \(token)\r\n"
                                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                            tally.started.withLock { $0 += 1 }
                            let answer = await connection.read(timeout: .seconds(20), until: Self.isWholeResponse)
                            let status = Self.isWholeResponse(answer.text) ? Int(answer.text.dropFirst(9).prefix(3)) : nil
                            tally.outcomes.withLock { $0[dedup] = status }
                            if !sent || status == nil || answer.text.lowercased().contains("connection: close") { return }
                        }
                    }
                }
                group.addTask {
                    _ = try await eventually(within: .seconds(30)) { tally.started.withLock { $0 } >= 80 }
                    process.signalStop()
                }
                try await group.waitForAll()
            }
            #expect(try await eventually(within: .seconds(30)) { process.exited != nil })
            #expect(process.exited == .exited(0))
            let all = tally.outcomes.withLock { $0 }
            let answered = all.filter { $0.value == 201 }
            let unanswered = all.filter { $0.value == nil }
            #expect(answered.count >= 80, "\(answered.count) answered before the stop")
            #expect(all.allSatisfy { $0.value == nil || $0.value == 201 }, "\(all.filter { $0.value != nil && $0.value != 201 })")
            // Not answered: then not committed either.
            for dedup in unanswered.keys {
                let retried = try await survivor.post(
                    "/v3/group_channels/\(channel)/messages", ["message": "m", "dedup_id": dedup], as: cast.session(0))
                #expect(retried.status == 201, "\(dedup) was committed but not answered")
            }
            let expected = answered.count + unanswered.count
            #expect(try await eventually(within: .seconds(30)) { watcher.events(ofType: "message_received").count >= expected })
            try await Task.sleep(for: .milliseconds(300))
            #expect(watcher.events(ofType: "message_received").count == expected)
            watcher.close()
        }
    }

    /// What the load's connections did: requests started, and each send's status (nil: no
    /// whole answer).
    final class Tally: Sendable {
        let started = Mutex(0)
        let outcomes = Mutex<[String: Int?]>([:])
    }

    /// Whether `text` holds a whole HTTP response (its header and a body as long as its
    /// Content-Length).
    static func isWholeResponse(_ text: String) -> Bool {
        guard let end = text.range(of: "\r\n\r\n") else { return false }
        let header = text[..<end.lowerBound].lowercased()
        let length =
            header.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return text[end.upperBound...].utf8.count >= length
    }

    /// An instance the others took for dead (a stall past the limit removed it and its socket
    /// rows) puts its live sockets back with its next heartbeat: its users are online again and
    /// count toward their socket cap.
    @Test func aReapedButLiveInstanceRestoresItsSockets() async throws {
        try await TestServer.withAPI({ $0.events.heartbeatInterval = .milliseconds(200) }) { api in
            let cast = try await api.cast("reaped", 1)
            let socket = try await api.events(cast.tokens[cast[0]]!)
            _ = try await socket.hello()
            #expect(try await api.get("/v3/users/\(cast[0])").rawJSON["is_online"] as? Bool == true)
            let database = try PostgresConnection(conninfo: TestServer.databaseURL, logger: TestServer.logger)
            // What another instance's reaping does: the instance row goes, its sockets with it.
            try database.query(
                "DELETE FROM event_instances WHERE instance_id IN (SELECT instance_id FROM event_sockets WHERE user_id = $1)", [cast[0]])
            let rows = try database.query("SELECT count(*) AS n FROM event_sockets WHERE user_id = $1", [cast[0]])[0].decode(
                "n", as: Int64.self)
            #expect(rows == 0)
            #expect(
                try await eventually {
                    try database.query("SELECT count(*) AS n FROM event_sockets WHERE user_id = $1", [cast[0]])[0].decode(
                        "n", as: Int64.self) == 1
                })
            #expect(try await api.get("/v3/users/\(cast[0])").rawJSON["is_online"] as? Bool == true)
            socket.close()
        }
    }
}
