import Foundation
import Testing

/// Sendbird's channel list filters on channel metadata and metacounters (`metadata_key`,
/// `metadata_values`, `metadata_value_startswith`, `metacounter_key`, `metacounter_values`,
/// `metacounter_value_gt|gte|lt|lte`), on `my_group_channels` and `GET /v3/group_channels`.
@Suite struct ChannelMapFilterTests {
    @Test func channelsAreFilteredByMetadataAndMetacounterValues() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("mapf", 2)
            var urls: [String] = []
            let topics: [String?] = ["swift", "swiftui", "rust", nil]
            let likes: [Int?] = [5, 10, 15, nil]
            for index in 0..<4 {
                let url = try await api.createChannel(["user_ids": [cast[0]], "custom_type": "mapf-\(cast[0])"])
                urls.append(url)
                if let topic = topics[index] {
                    #expect(try await api.post("/v3/group_channels/\(url)/metadata", ["metadata": ["topic": topic]]).status == 201)
                }
                if let count = likes[index] {
                    #expect(try await api.post("/v3/group_channels/\(url)/metacounter", ["metacounter": ["likes": count]]).status == 201)
                }
            }
            // Another user's channel with the same values never shows in the first one's list.
            let elsewhere = try await api.createChannel(["user_ids": [cast[1]], "custom_type": "mapf-\(cast[0])"])
            _ = try await api.post("/v3/group_channels/\(elsewhere)/metadata", ["metadata": ["topic": "swift"]])

            func listed(_ filters: String) async throws -> Set<String> {
                let mine = try await api.get("/v3/users/\(cast[0])/my_group_channels?limit=100&\(filters)", as: cast.session(0))
                #expect(mine.status == 200, "\(filters): \(mine.text)")
                let all = try await api.get("/v3/group_channels?limit=100&custom_types=mapf-\(cast[0])&\(filters)")
                let channels = { (response: APIResponse) in
                    Set((response.rawJSON["channels"] as? [[String: Any]] ?? []).compactMap { $0["channel_url"] as? String })
                }
                // The admin's list holds the other user's channel too when it matches.
                #expect(channels(all).subtracting([elsewhere]) == channels(mine), "\(filters)")
                return channels(mine)
            }
            #expect(try await listed("metadata_key=topic") == Set(urls.prefix(3)))
            #expect(try await listed("metadata_key=topic&metadata_values=swift,rust") == [urls[0], urls[2]])
            #expect(try await listed("metadata_key=topic&metadata_value_startswith=swift") == [urls[0], urls[1]])
            #expect(try await listed("metadata_key=colour").isEmpty)
            #expect(try await listed("metacounter_key=likes&metacounter_value_gte=10") == [urls[1], urls[2]])
            #expect(try await listed("metacounter_key=likes&metacounter_value_gt=5&metacounter_value_lt=15") == [urls[1]])
            #expect(try await listed("metacounter_key=likes&metacounter_value_lte=5") == [urls[0]])
            #expect(try await listed("metacounter_key=likes&metacounter_values=5,15") == [urls[0], urls[2]])
            #expect(try await listed("metadata_key=topic&metadata_values=swift&metacounter_key=likes&metacounter_value_gt=5").isEmpty)

            let base = "/v3/users/\(cast[0])/my_group_channels"
            #expect(try await api.get("\(base)?metadata_values=swift").code == 400105)
            #expect(try await api.get("\(base)?metacounter_value_gt=1").code == 400105)
            #expect(try await api.get("\(base)?metacounter_key=likes&metacounter_values=5,many").code == 400111)
            #expect(try await api.get("\(base)?metacounter_key=likes&metacounter_value_lt=few").code == 400101)
            // A page token pages the filtered list it came from only.
            let first = try await api.get("\(base)?limit=1&metadata_key=topic")
            let token = try #require(first.rawJSON["next"] as? String)
            #expect(try await api.get("\(base)?limit=1&metadata_key=colour&token=\(token)").code == 400109)
            #expect(try await api.get("\(base)?limit=1&metadata_key=topic&token=\(token)").status == 200)
        }
    }
}
