import Foundation
import Testing

/// Who may download an open channel's files.
@Suite struct OpenChannelFileTests: ParticipantFixtures {
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
}
