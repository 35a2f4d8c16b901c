import Foundation
import Testing

/// Participants of open channels (API.md §8.3, §8.4, §7 on open channels): entering and exiting
/// over REST and the event stream, the cap, the list, moderation, the events and throttling.
@Suite struct ParticipantTests {
    /// A new open channel; returns its URL.
    static func openChannel(_ api: API, _ body: [String: Any] = [:]) async throws -> String {
        let response = try await api.post("/v3/open_channels", body)
        guard response.status == 201, let url = response.rawJSON["channel_url"] as? String else {
            throw TestFailure("creating an open channel answered \(response.status): \(response.text)")
        }
        return url
    }

    static func participantIDs(_ api: API, _ url: String) async throws -> [String] {
        let list = try await api.get("/v3/open_channels/\(url)/participants?limit=100").rawJSON["participants"] as? [[String: Any]]
        return (list ?? []).compactMap { $0["user_id"] as? String }
    }

    static func participantCount(_ api: API, _ url: String) async throws -> Int? {
        try await api.get("/v3/open_channels/\(url)").rawJSON["participant_count"] as? Int
    }

    @Test func enteringAndExitingOverRESTKeepTheCountEqualToTheList() async throws {
        try await TestServer.withAPI({ $0.limits.openChannelParticipants = 2 }) { api in
            let cast = try await api.cast("part", 3)
            let url = try await Self.openChannel(api)
            let base = "/v3/open_channels/\(url)"
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(0)).status == 200)
            // Entering again renews: no second seat.
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(0)).rawJSON["participant_count"] as? Int == 1)
            #expect(try await api.put("\(base)/enter", ["user_id": cast[1]]).status == 200)
            let full = try await api.put("\(base)/enter", [:], as: cast.session(2))
            #expect(full.status == 403)
            #expect(try full.code == 900400)
            // Acting for someone else is refused; the admin must name the user.
            #expect(try await api.put("\(base)/enter", ["user_id": cast[2]], as: cast.session(0)).status == 403)
            #expect(try await api.put("\(base)/enter", [:]).status == 400)
            let listed = try await api.get("\(base)/participants?limit=1")
            let first = try #require((listed.rawJSON["participants"] as? [[String: Any]])?.first)
            #expect(first["user_id"] as? String == cast[0])
            #expect(first["is_online"] as? Bool == false)
            #expect(first["is_muted"] as? Bool == false)
            let next = try #require(listed.rawJSON["next"] as? String)
            let second = try await api.get("\(base)/participants?limit=1&token=\(next)").rawJSON["participants"] as? [[String: Any]]
            #expect(second?.map { $0["user_id"] as? String } == [cast[1]])
            #expect(try await Self.participantCount(api, url) == 2)
            #expect(try await api.put("\(base)/exit", [:], as: cast.session(0)).status == 200)
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(2)).status == 200)
            #expect(try await Self.participantIDs(api, url) == [cast[1], cast[2]])
            #expect(try await Self.participantCount(api, url) == 2)
            #expect(try await api.put("/v3/open_channels/open_unknown/enter", [:], as: cast.session(0)).status == 404)
        }
    }

    @Test func aRESTEnterLapsesUnlessRenewedASocketHoldsOneUntilItCloses() async throws {
        try await TestServer.withAPI({
            $0.limits.openChannelEnterHoldMillis = 1_000
            $0.events.heartbeatInterval = .milliseconds(200)
        }) { api in
            let cast = try await api.cast("lapse", 3)
            let url = try await Self.openChannel(api)
            let base = "/v3/open_channels/\(url)"
            let watcher = try await api.events(cast.tokens[cast[2]]!)
            _ = try await watcher.hello()
            try watcher.send(["type": "enter", "channel_url": url])
            _ = try await watcher.waitFor { $0["type"] as? String == "participant_entered" }
            // A REST-only enter holds for the configured time, then the sweep ends it.
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(0)).status == 200)
            let exited = try await watcher.waitFor(within: .seconds(15)) {
                $0["type"] as? String == "participant_exited"
                    && (($0["data"] as? [String: Any])?["users"] as? [[String: Any]])?.first?["user_id"] as? String == cast[0]
            }
            #expect(exited["channel_type"] as? String == "open")
            // A socket's enter holds while the socket is open, and ends when it closes.
            let holder = try await api.events(cast.tokens[cast[1]]!)
            _ = try await holder.hello()
            try holder.send(["type": "enter", "channel_url": url])
            _ = try await holder.waitFor { $0["type"] as? String == "participant_entered" }
            try await Task.sleep(for: .milliseconds(1_500))
            #expect(try await Self.participantIDs(api, url).contains(cast[1]))
            holder.close()
            _ = try await watcher.waitFor {
                $0["type"] as? String == "participant_exited"
                    && (($0["data"] as? [String: Any])?["users"] as? [[String: Any]])?.first?["user_id"] as? String == cast[1]
            }
            #expect(try await Self.participantIDs(api, url) == [cast[2]])
            #expect(try await Self.participantCount(api, url) == 1)
            // An exit frame leaves at once.
            try watcher.send(["type": "exit", "channel_url": url])
            #expect(try await eventually { try await Self.participantIDs(api, url).isEmpty })
            watcher.close()
        }
    }

    @Test func eventsReachTheCurrentParticipantsOnly() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ocev", 3)
            let (sender, listener, outsider) = (cast[0], cast[1], cast[2])
            let url = try await Self.openChannel(api)
            let base = "/v3/open_channels/\(url)"
            let listenerSocket = try await api.events(cast.tokens[listener]!)
            let outsiderSocket = try await api.events(cast.tokens[outsider]!)
            _ = try await outsiderSocket.hello()
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(1)).status == 200)
            #expect(try await api.put("\(base)/enter", [:], as: cast.session(0)).status == 200)
            let entered = try await listenerSocket.waitFor {
                $0["type"] as? String == "participant_entered"
                    && (($0["data"] as? [String: Any])?["users"] as? [[String: Any]])?.first?["user_id"] as? String == sender
            }
            #expect(entered["channel_url"] as? String == url)
            _ = try await api.post(
                "\(base)/messages", ["message_type": "MESG", "user_id": sender, "message": "hello room"], as: cast.session(0))
            let received = try await listenerSocket.waitForEvent("message_received")
            #expect(received["channel_type"] as? String == "open")
            #expect((received["data"] as? [String: Any])?["channel_type"] as? String == "open")
            #expect(try await api.put(base, ["name": "Renamed"]).status == 200)
            let changed = try await listenerSocket.waitForEvent("channel_changed")
            #expect((changed["data"] as? [String: Any])?["participant_count"] as? Int == 2)
            // The listener leaves: nothing more reaches them.
            #expect(try await api.put("\(base)/exit", [:], as: cast.session(1)).status == 200)
            _ = try await listenerSocket.waitForEvent("participant_exited")
            _ = try await api.post("\(base)/messages", ["message_type": "MESG", "user_id": sender, "message": "after"], as: cast.session(0))
            #expect(try await api.put("\(base)/freeze", ["freeze": true]).status == 200)
            // A socket of the sender, to know the events went out.
            let late = try await api.events(cast.tokens[sender]!, after: received["event_id"] as? Int64)
            _ = try await late.waitForEvent("channel_frozen")
            try await Task.sleep(for: .milliseconds(200))
            #expect(listenerSocket.events(ofType: "message_received").count == 1)
            #expect(listenerSocket.events(ofType: "channel_frozen").isEmpty)
            #expect(outsiderSocket.events.filter { $0["channel_url"] as? String == url }.isEmpty)
            for socket in [listenerSocket, outsiderSocket, late] { socket.close() }
        }
    }

    @Test func aBanExitsTheParticipantAndAMuteSilencesThem() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ocmod", 3)
            let url = try await api.post("/v3/open_channels", [:], as: cast.session(0)).rawJSON["channel_url"] as? String ?? ""
            let base = "/v3/open_channels/\(url)"
            for index in 1...2 { #expect(try await api.put("\(base)/enter", [:], as: cast.session(index)).status == 200) }
            let bannedSocket = try await api.events(cast.tokens[cast[1]]!)
            _ = try await bannedSocket.hello()
            // The operator (its creator) bans; a participant cannot.
            #expect(try await api.post("\(base)/ban", ["user_id": cast[2]], as: cast.session(1)).status == 403)
            #expect(try await api.post("\(base)/ban", ["user_id": cast[1], "seconds": 600], as: cast.session(0)).status == 200)
            _ = try await bannedSocket.waitForEvent("user_banned")
            #expect(try await Self.participantIDs(api, url) == [cast[2]])
            let enter = try await api.put("\(base)/enter", [:], as: cast.session(1))
            #expect(try enter.code == 400750)
            let send = try await api.post(
                "\(base)/messages", ["message_type": "MESG", "user_id": cast[1], "message": "x"], as: cast.session(1))
            #expect(try send.code == 900100)
            let read = try await api.get("\(base)/messages?message_ts=0&next_limit=5", as: cast.session(1))
            #expect(try read.code == 900100)
            let banned = try await api.get("\(base)/ban").rawJSON["banned_list"] as? [[String: Any]]
            #expect(banned?.count == 1)
            // A mute: the participant stays, is listed as muted, and cannot send.
            let muted = try await api.post("\(base)/mute", ["user_id": cast[2]], as: cast.session(0))
            #expect(muted.status == 200)
            #expect(muted.rawJSON["channel_type"] as? String == "open")
            let participant = try await api.get("\(base)/participants").rawJSON["participants"] as? [[String: Any]]
            #expect(participant?.first?["is_muted"] as? Bool == true)
            let silenced = try await api.post(
                "\(base)/messages", ["message_type": "MESG", "user_id": cast[2], "message": "x"], as: cast.session(2))
            #expect(try silenced.code == 900041)
            #expect(try await api.delete("\(base)/mute/\(cast[2])", as: cast.session(0)).status == 200)
            #expect(
                try await api.post("\(base)/messages", ["message_type": "MESG", "user_id": cast[2], "message": "ok"], as: cast.session(2))
                    .status == 201)
            // Operators are not banned by operators; the user's own list shows the open channel.
            #expect(try await api.post("\(base)/operators", ["operator_ids": [cast[2]]], as: cast.session(0)).status == 200)
            #expect(try await api.post("\(base)/ban", ["user_id": cast[2]], as: cast.session(0)).status == 403)
            let mine = try await api.get("/v3/users/\(cast[1])/ban", as: cast.session(1)).rawJSON["banned_channels"] as? [[String: Any]]
            #expect((mine?.first?["channel"] as? [String: Any])?["channel_type"] as? String == "open")
            bannedSocket.close()
        }
    }

    /// Smart throttling (API.md §8.4): 50 messages from others in about a second reach a
    /// participant at most 5 per second; their own, the admin's and operators' always; history
    /// keeps all.
    @Test func aParticipantsStreamCarriesAtMostFiveOthersMessagesPerSecond() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("thr", 3)
            let (reader, talker, op) = (cast[0], cast[1], cast[2])
            let url = try await Self.openChannel(api, ["operator_ids": [op]])
            let base = "/v3/open_channels/\(url)"
            for index in 0..<3 { #expect(try await api.put("\(base)/enter", [:], as: cast.session(index)).status == 200) }
            let socket = try await api.events(cast.tokens[reader]!)
            _ = try await socket.hello()
            let start = ContinuousClock.now
            // Over ten connections: fifty requests queued on the one client connection outlasted
            // its read timeout when the whole suite loaded the two cores.
            try await api.withConnections(10) { clients in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<50 {
                        group.addTask {
                            let response = try await clients[index % 10].post(
                                "\(base)/messages", ["message_type": "MESG", "user_id": talker, "message": "t\(index)"], as: cast.session(1)
                            )
                            guard response.status == 201 else { throw TestFailure("send answered \(response.status)") }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            let seconds = Int((ContinuousClock.now - start).components.seconds) + 1
            _ = try await api.post("\(base)/messages", ["message_type": "MESG", "user_id": reader, "message": "mine"], as: cast.session(0))
            _ = try await api.post("\(base)/messages", ["message_type": "MESG", "user_id": op, "message": "operator"], as: cast.session(2))
            _ = try await api.post("\(base)/messages", ["message_type": "ADMM", "message": "admin"])
            for text in ["mine", "operator", "admin"] {
                _ = try await socket.waitFor { ($0["data"] as? [String: Any])?["message"] as? String == text }
            }
            let fromTalker = socket.events(ofType: "message_received").filter {
                (($0["data"] as? [String: Any])?["user"] as? [String: Any])?["user_id"] as? String == talker
            }
            // At most 5 in each server second the sends spanned (and the one after, as a
            // delivery may fall into it).
            #expect(fromTalker.count >= 1)
            #expect(fromTalker.count <= 5 * (seconds + 1), "\(fromTalker.count) of 50 in \(seconds) s")
            #expect(try await api.get("\(base)/messages/total_count").rawJSON["total"] as? Int == 53)
            socket.close()
        }
    }

    /// An open channel's files are as public as its messages: any user's current key opens them,
    /// except a banned user's; a deactivated participant exits.
    @Test func anyoneButABannedUserDownloadsAnOpenChannelsFiles() async throws {
        try await TestServer.withAPI({ $0.events.heartbeatInterval = .milliseconds(200) }) { api in
            let cast = try await api.cast("ocfile", 3)
            let url = try await Self.openChannel(api)
            #expect(try await api.put("/v3/open_channels/\(url)/enter", [:], as: cast.session(0)).status == 200)
            let bytes = Media.random(2000)
            let sent = try await api.upload(
                url, ["user_id": cast[0]], file: FormFile(bytes: bytes), as: cast.session(0), kind: "open_channels")
            #expect(sent.status == 201, "\(sent.text)")
            let plain = try #require(try sent.decode(MessageBody.self).file?.url.components(separatedBy: "?").first)
            func key(_ index: Int) async throws -> String {
                try await api.post("/v3/users/\(cast[index])/file_auth_key", as: cast.session(index)).decode(FileAuthKeyBody.self).auth
            }
            #expect(try await api.download(plain + "?auth=\(try await key(1))").bytes == bytes)
            #expect(try await api.post("/v3/open_channels/\(url)/ban", ["user_id": cast[2]]).status == 200)
            let banned = try await api.download(plain + "?auth=\(try await key(2))")
            #expect(banned.status == 403)
            // Deactivating the participant ends their participation at the next heartbeat.
            #expect(try await api.put("/v3/users/\(cast[0])", ["is_active": false]).status == 200)
            #expect(try await eventually { try await Self.participantIDs(api, url).isEmpty })
            #expect(try await Self.participantCount(api, url) == 0)
        }
    }

    /// Who may moderate an open channel (API.md §7 on §8): the admin and the channel's operators
    /// (in it or not), never an operator on another operator; everyone else sees the channel, so
    /// is refused with 403 rather than 404; nobody acts for someone else.
    @Test func theOpenChannelModerationMatrix() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("ocmodz", 5)
            let (op, op2, target) = (cast[0], cast[1], cast[3])
            let url = try await Self.openChannel(api, ["operator_ids": [op, op2]])
            let base = "/v3/open_channels/\(url)"
            for index in 2...3 { #expect(try await api.put("\(base)/enter", [:], as: cast.session(index)).status == 200) }
            for path in ["ban", "mute"] {
                #expect(try await api.post("\(base)/\(path)", ["user_id": target], as: .none).status == 401)
                #expect(try await api.post("\(base)/\(path)", ["user_id": target], as: cast.session(4)).status == 403, "outsider")
                #expect(try await api.post("\(base)/\(path)", ["user_id": target], as: cast.session(2)).status == 403, "participant")
                #expect(try await api.post("\(base)/\(path)", ["user_id": op2], as: cast.session(0)).status == 403, "operator on operator")
                let asOther = try await api.post("\(base)/\(path)", ["user_id": target, "agent_id": op2], as: cast.session(0))
                #expect(asOther.status == 403, "acting for someone else")
                #expect(try await api.get("\(base)/\(path)", as: cast.session(2)).status == 403)
                #expect(try await api.get("\(base)/\(path)", as: cast.session(0)).rawJSON["total_\(path)_count"] as? Int == 0)
                #expect(try await api.post("/v3/open_channels/open_none/\(path)", ["user_id": target]).status == 404)
            }
            // An operator who never entered mutes; the admin bans an operator.
            #expect(try await api.post("\(base)/mute", ["user_id": target, "seconds": 60], as: cast.session(1)).status == 200)
            #expect(try await api.get("\(base)/mute/\(target)", as: cast.session(3)).rawJSON["is_muted"] as? Bool == true)
            #expect(try await api.post("\(base)/ban", ["user_id": op2]).status == 200)
            let audit = try await api.get("/v3/audit_logs?channel_url=\(url)").rawJSON["audit_logs"] as? [[String: Any]] ?? []
            #expect(Set(audit.compactMap { $0["action"] as? String }).isSuperset(of: ["mute", "ban"]))
        }
    }
}
