import Foundation
import Testing

/// Issue 10.13: requests that lock rows of many channels (leaving all, deactivation, deletion)
/// and sends into those channels take their locks in one order, and a transaction that still
/// meets a deadlock is run again: nobody gets a 500.
@Suite struct ContentionTests {
    @Test func leavingEverythingWhileOthersSendIsNeverA500() async throws {
        try await TestServer.withAPI({ $0.databasePoolSize = 8 }) { api in
            let users = try await api.cast("contend", 3)
            for round in 0..<8 {
                let leaver = try await api.cast("leaver\(round)", 1)
                var created: [String] = []
                for _ in 0..<50 {
                    created.append(try await api.createChannel(["user_ids": [leaver[0], users[1], users[2]]], as: users.session(0)))
                }
                let channels = created
                let statuses = Captured<[Int]>([])
                try await api.withConnections(8) { clients in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for sender in 0..<6 {
                            group.addTask {
                                for index in 0..<50 {
                                    let url = channels[(index * 7 + sender * 13) % channels.count]
                                    let sent = try await clients[sender].post(
                                        "/v3/group_channels/\(url)/messages", ["message": "m"], as: users.session(sender % 3))
                                    statuses.update { $0.append(sent.status) }
                                }
                            }
                        }
                        group.addTask {
                            try await Task.sleep(for: .milliseconds(30))
                            let left = try await clients[6].put(
                                "/v3/group_channels/\(channels[25])/leave", ["should_leave_all": true], as: leaver.session(0))
                            statuses.update { $0.append(left.status) }
                        }
                        group.addTask {
                            try await Task.sleep(for: .milliseconds(30))
                            let deactivated = try await clients[7].put("/v3/users/\(leaver[0])", ["is_active": false])
                            statuses.update { $0.append(deactivated.status) }
                        }
                        try await group.waitForAll()
                    }
                }
                #expect(!statuses.value.contains { $0 >= 500 }, "round \(round): \(statuses.value.filter { $0 >= 500 })")
                #expect(try await api.get("/v3/users/\(leaver[0])/my_group_channels").channelURLs.isEmpty)
                let channel = try await api.get("/v3/group_channels/\(channels[0])").decode(ChannelBody.self)
                #expect(channel.memberCount == 3, "counts are right after the race")
            }
        }
    }
}
