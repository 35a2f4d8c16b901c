import Foundation
import ParleyContainer
import Testing

/// Issue 51.3 and 51.4: reads served by a read replica (the cluster's asynchronous standby,
/// `DATABASE_READ_URL`) never show a caller less than they wrote, on whichever instance they
/// read; a replica past the lag bound, or one that stops answering, hands its reads to the
/// primary and comes back once it has caught up.
///
/// That a read came from the replica is seen from what it shows: with the replica's replay
/// paused (`pg_wal_replay_pause`), a message sent meanwhile is missing from the replica only.
@Suite(.serialized, .enabled(if: HACluster.databaseURL != nil, "needs scripts/test-ha's cluster"))
struct ReplicaReadTests {
    @Test func aCallerReadsTheirOwnWritesThroughAReplicaHeldBehind() async throws {
        try await HACluster.run("wait-healthy")
        let readURL = try await HACluster.run("read-url", "async")
        try await Self.withReplicaServer(readURL, maxLag: .seconds(120)) { api in
            // A second instance on the same databases: positions are the database's, not a process's.
            try await Self.withReplicaServer(readURL, maxLag: .seconds(120)) { otherInstance in
                let cast = try await api.cast("replica", 3)
                let channel = try await api.createChannel(["user_ids": cast.ids])
                try await Self.untilTheReplicaServes(api, channel, cast)
                try await HACluster.run("replay", "pause")
                do {
                    let (writer, reader) = (cast.session(0), cast.session(2))
                    try await Self.send("from-b", api, channel, as: cast.session(1))
                    try await Self.send("from-a", api, channel, as: writer)
                    #expect(try await Self.texts(api, channel, as: writer).contains("from-a"), "the writer's own read")
                    #expect(try await Self.texts(otherInstance, channel, as: writer).contains("from-a"), "on another instance")
                    // The third member wrote nothing since: the replica serves them, without what
                    // it has not replayed (by design: others' writes may lag, within the bound).
                    let seen = try await Self.texts(api, channel, as: reader)
                    #expect(!seen.contains("from-a") && !seen.contains("from-b"), "the replica did not serve: \(seen)")
                    // The app's backend reads the channel it has just renamed; a user, themself.
                    #expect(try await api.put("/v3/group_channels/\(channel)", ["name": "renamed-behind"]).status == 200)
                    #expect(try await otherInstance.get("/v3/group_channels/\(channel)").rawJSON["name"] as? String == "renamed-behind")
                    let me = "/v3/users/\(cast[0])"
                    #expect(try await api.put(me, ["nickname": "renamed-a"], as: writer).status == 200)
                    #expect(try await otherInstance.get(me, as: writer).rawJSON["nickname"] as? String == "renamed-a")
                    #expect(
                        try await otherInstance.get(me, as: reader).rawJSON["nickname"] as? String != "renamed-a", "served by the replica")
                } catch {
                    try await HACluster.run("replay", "resume")
                    throw error
                }
                try await HACluster.run("replay", "resume")
                #expect(
                    try await eventually(within: .seconds(30)) {
                        try await Self.texts(api, channel, as: cast.session(2)).contains("from-b")
                    })
            }
        }
    }

    @Test func aReplicaPastTheLagBoundLeavesTheRotationAndComesBack() async throws {
        try await HACluster.run("wait-healthy")
        let readURL = try await HACluster.run("read-url", "async")
        try await Self.withReplicaServer(readURL, maxLag: .seconds(2)) { api in
            let cast = try await api.cast("lagging", 3)
            let channel = try await api.createChannel(["user_ids": cast.ids])
            try await Self.untilTheReplicaServes(api, channel, cast)
            try await HACluster.run("replay", "pause")
            do {
                try await Self.send("while-paused", api, channel, as: cast.session(1))
                // Two seconds behind, the replica is out and the primary serves the reader.
                let served = try await eventually(within: .seconds(20), every: .milliseconds(250)) {
                    try await Self.texts(api, channel, as: cast.session(2)).contains("while-paused")
                }
                #expect(served, "reads stayed on a replica past the lag bound")
            } catch {
                try await HACluster.run("replay", "resume")
                throw error
            }
            try await HACluster.run("replay", "resume")
            // Caught up, it serves again.
            try await Self.untilTheReplicaServes(api, channel, cast)
        }
    }

    @Test func aStalledReplicaHandsItsReadsToThePrimary() async throws {
        try await HACluster.run("wait-healthy")
        let readURL = try await HACluster.run("read-url", "async")
        try await Self.withReplicaServer(readURL, maxLag: .seconds(120)) { api in
            let cast = try await api.cast("stalled", 3)
            let channel = try await api.createChannel(["user_ids": cast.ids])
            try await Self.untilTheReplicaServes(api, channel, cast)
            // The replica's postmaster and backends stopped for 8 s, as a frozen host.
            let stall = Task { try await HACluster.run("stall-standby", "8") }
            try await Task.sleep(for: .milliseconds(300))
            var (slowest, shownByThePrimary, reads) = (Duration.zero, 0, 0)
            let end = ContinuousClock.now + .seconds(6)
            while ContinuousClock.now < end {
                let text = "during-stall-\(reads)"
                try await Self.send(text, api, channel, as: cast.session(1))
                let started = ContinuousClock.now
                // Every read is answered (texts throws on anything but 200).
                let seen = try await Self.texts(api, channel, as: cast.session(2))
                slowest = max(slowest, ContinuousClock.now - started)
                if seen.contains(text) { shownByThePrimary += 1 }
                reads += 1
            }
            try await stall.value
            #expect(slowest < .seconds(5), "a read waited \(slowest) for the stalled replica")
            #expect(shownByThePrimary >= reads - 3, "only \(shownByThePrimary) of \(reads) reads went to the primary")
            try await HACluster.run("wait-healthy")
            try await Self.untilTheReplicaServes(api, channel, cast)
        }
    }

    /// Sends `text` to `channel` as `credential`; fails on anything but success.
    static func send(_ text: String, _ api: API, _ channel: String, as credential: Credential) async throws {
        let sent = try await api.post("/v3/group_channels/\(channel)/messages", ["message": text], as: credential)
        guard sent.status == 200 || sent.status == 201 else { throw TestFailure("sending answered \(sent.status): \(sent.text)") }
    }

    /// The texts of the channel's newest 100 messages, as `credential` reads them.
    static func texts(_ api: API, _ channel: String, as credential: Credential) async throws -> [String] {
        let page = try await api.get(
            "/v3/group_channels/\(channel)/messages?message_ts=9999999999999&prev_limit=100&next_limit=0", as: credential)
        guard page.status == 200 else { throw TestFailure("history answered \(page.status): \(page.text)") }
        return (page.rawJSON["messages"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }

    /// Waits until the replica serves the third member's reads: with replay paused, a message the
    /// second sends is missing from what the third reads.
    static func untilTheReplicaServes(_ api: API, _ channel: String, _ cast: Cast) async throws {
        for attempt in 0..<60 {
            try await HACluster.run("replay", "pause")
            let marker = "probe-\(attempt)"
            let seen: [String]
            do {
                try await send(marker, api, channel, as: cast.session(1))
                seen = try await texts(api, channel, as: cast.session(2))
            } catch {
                try await HACluster.run("replay", "resume")
                throw error
            }
            try await HACluster.run("replay", "resume")
            if !seen.contains(marker) { return }
            try await Task.sleep(for: .milliseconds(500))
        }
        throw TestFailure("the replica never served a read")
    }

    /// A server on the cluster's primary, reading from `readURL`'s replica.
    static func withReplicaServer(_ readURL: String, maxLag: Duration, _ body: @escaping @Sendable (API) async throws -> Void) async throws
    {
        let url = try #require(HACluster.databaseURL)
        try await TestServer.withAPI({ config in
            config.databaseURL = url + (url.contains("?") ? "&" : "?") + "target_session_attrs=read-write"
            var replicas = ReadReplicaSettings(url: readURL + "?target_session_attrs=standby", poolSize: 4)
            replicas.monitor.maxLag = maxLag
            config.readReplicas = replicas
        }) { api in try await body(api) }
    }
}
