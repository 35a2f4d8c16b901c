import Foundation
import Testing

/// Message search (API.md §13.5): any language, the current text, and only what the caller may read.
@Suite struct SearchTests: MessageFixtures {
    static func found(_ response: APIResponse) -> [String] {
        (response.rawJSON["results"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
    }

    static func search(_ api: API, _ query: String, _ extra: String = "", as credential: Credential) async throws -> [String] {
        let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
        let response = try await api.get("/v3/search/messages?query=\(encoded)\(extra)", as: credential)
        #expect(response.status == 200, "\(response.text)")
        return found(response)
    }

    @Test func anyLanguageAndTheCurrentText() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("srch", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let path = "/v3/group_channels/\(channel)/messages"
            for text in ["저는 오늘 학교에 갑니다", "東京都に住んでいます", "I was running late", "apple pie"] {
                #expect(try await api.post(path, ["message": text], as: cast.session(0)).status == 201)
            }
            let reader = cast.session(1)
            #expect(try await Self.search(api, "학교", as: reader) == ["저는 오늘 학교에 갑니다"])
            #expect(try await Self.search(api, "京都", as: reader) == ["東京都に住んでいます"])
            #expect(try await Self.search(api, "住んで", as: reader) == ["東京都に住んでいます"])
            #expect(try await Self.search(api, "run", as: reader) == ["I was running late"])
            #expect(try await Self.search(api, "京大", as: reader).isEmpty)
            // Both characters are in it, but not together in this order.
            #expect(try await Self.search(api, "都京", as: reader).isEmpty)
            #expect(try await Self.search(api, "교학", as: reader).isEmpty)
            // An edit is found by its new text at once, not by its old one.
            let apple = try await api.get("\(path)?message_ts=0&next_limit=10&prev_limit=0").rawJSON["messages"] as? [[String: Any]]
            let appleID = apple?.last?["message_id"] as? Int ?? 0
            #expect(try await api.put("\(path)/\(appleID)", ["message": "banana bread"], as: cast.session(0)).status == 200)
            #expect(try await Self.search(api, "banana", as: reader) == ["banana bread"])
            #expect(try await Self.search(api, "apple", as: reader).isEmpty)
            // A deleted message is never found.
            #expect(try await api.delete("\(path)/\(appleID)", as: cast.session(0)).status == 200)
            #expect(try await Self.search(api, "banana", as: reader).isEmpty)
        }
    }

    @Test func onlyWhatTheCallerMayRead() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("srchv", 3)
            let word = "zebra\(UInt32.random(in: 100_000...999_999))"
            let ours = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let theirs = try await api.createChannel(["user_ids": [cast[0], cast[2]]])
            _ = try await api.post("/v3/group_channels/\(ours)/messages", ["message": "\(word) ours"], as: cast.session(0))
            _ = try await api.post("/v3/group_channels/\(theirs)/messages", ["message": "\(word) theirs"], as: cast.session(0))
            #expect(try await Self.search(api, word, as: cast.session(1)) == ["\(word) ours"])
            #expect(try await Self.search(api, word, as: cast.session(0)) == ["\(word) theirs", "\(word) ours"])
            #expect(try await Self.search(api, word, "&channel_url=\(theirs)", as: cast.session(1)).isEmpty)
            #expect(try await Self.search(api, word, as: .admin).count == 2)
            // A reset history hides what came before it.
            #expect(try await api.put("/v3/group_channels/\(theirs)/reset_user_history", ["user_id": cast[2]]).status == 200)
            #expect(try await Self.search(api, word, as: cast.session(2)).isEmpty)
            // A 1-to-1 message hidden by a block is not found by the blocker; its sender finds it.
            #expect(try await api.post("/v3/users/\(cast[1])/block", ["target_id": cast[0]], as: cast.session(1)).status == 200)
            _ = try await api.post("/v3/group_channels/\(ours)/messages", ["message": "\(word) hidden"], as: cast.session(0))
            #expect(try await Self.search(api, word, as: cast.session(1)) == ["\(word) ours"])
            #expect(try await Self.search(api, word, as: cast.session(0)).contains("\(word) hidden"))
        }
    }

    @Test func filtersOrderPagesAndBadParameters() async throws {
        try await TestServer.withAPI({ config in
            config.limits.searchQueryLength = 30
            config.limits.searchTerms = 30
        }) { api in
            let cast = try await api.cast("srchf", 2)
            let word = "quokka\(UInt32.random(in: 100_000...999_999))"
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let path = "/v3/group_channels/\(channel)/messages"
            for index in 0..<5 {
                let body: [String: Any] = ["message": "\(word) \(index)", "custom_type": index == 3 ? "special" : ""]
                _ = try await api.post(path, body, as: cast.session(index % 2))
            }
            _ = try await api.post(path, ["message": "\(word) \(word) \(word) strong"], as: cast.session(0))
            let reader = cast.session(1)
            #expect(try await Self.search(api, word, "&custom_type=special", as: reader) == ["\(word) 3"])
            #expect(try await Self.search(api, word, "&sender_id=\(cast[1])", as: reader) == ["\(word) 3", "\(word) 1"])
            #expect(try await Self.search(api, word, "&sort_field=score", as: reader).first == "\(word) \(word) \(word) strong")
            // Both words are in it, but not in this order.
            #expect(try await Self.search(api, "strong \(word)", "&exact_match=true", as: reader).isEmpty)
            #expect(try await Self.search(api, "strong", "&exact_match=true", as: reader).count == 1)
            let first = try await api.get("/v3/search/messages?query=\(word)&limit=4", as: reader)
            #expect(Self.found(first).count == 4)
            let next = first.rawJSON["next"] as? String ?? ""
            #expect(first.rawJSON["has_next"] as? Bool == true)
            let second = try await api.get("/v3/search/messages?query=\(word)&limit=4&token=\(next)", as: reader)
            #expect(Self.found(second) == ["\(word) 1", "\(word) 0"])
            // The configured query length (30 here) in characters.
            #expect(try await Self.search(api, String(repeating: "가", count: 30), as: reader).isEmpty)
            let long = "&query=\(String(repeating: "a", count: 31))"
            for bad in ["", "&query=", "&query=%21%21", "&query=x&sort_field=size", "&query=x&limit=0", "&query=x&exact_match=maybe", long]
            {
                let refused = try await api.get("/v3/search/messages?\(bad)", as: reader)
                #expect(refused.status == 400, "\(bad): \(refused.text)")
            }
        }
    }
}
