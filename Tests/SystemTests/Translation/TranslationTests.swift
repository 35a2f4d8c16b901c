import Foundation
import ParleyContainer
import Testing

/// Translation through the API (API.md §9) with a local provider: on demand and stored, on send
/// within the time limit (late ones with `message_updated`), again after an edit, in both kinds
/// of channel, and a send that never fails because of the provider.
@Suite struct TranslationTests {
    /// A server whose provider is `provider`, listening.
    static func withTranslatingAPI(
        _ provider: FakeTranslationProvider, _ adjust: @escaping @Sendable (inout Config) -> Void = { _ in },
        _ body: @escaping @Sendable (API) async throws -> Void
    ) async throws {
        try await provider.run { url in
            try await TestServer.withAPI({ config in
                config.translation.provider = .init(rawValue: provider.kind.rawValue)!
                config.translation.url = url
                config.translation.key = provider.key
                adjust(&config)
            }) { api in try await body(api) }
        }
    }

    static func translations(_ response: APIResponse) -> [String: String] {
        response.rawJSON["translations"] as? [String: String] ?? [:]
    }

    @Test func onDemandTranslationsAreStoredAndNeverAskedForTwice() async throws {
        let provider = FakeTranslationProvider(.google)
        try await Self.withTranslatingAPI(provider) { api in
            let cast = try await api.cast("tr", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let base = "/v3/group_channels/\(channel)/messages"
            let sent = try await api.post(base, ["message": "Good morning @{\(cast[1])}, see https://parley.test/x"], as: cast.session(0))
            let id = try #require(sent.rawJSON["message_id"] as? Int)
            #expect(Self.translations(sent).isEmpty)
            let translated = try await api.post("\(base)/\(id)/translation", ["target_langs": ["es", "KO"]], as: cast.session(1))
            #expect(translated.status == 200, "\(translated.text)")
            #expect(
                Self.translations(translated) == [
                    "es": "[es] Good morning @{\(cast[1])}[es] , see https://parley.test/x",
                    "ko": "[ko] Good morning @{\(cast[1])}[ko] , see https://parley.test/x"
                ])
            #expect(provider.received.count == 2)
            // Stored: asked again, read back, in history, without the provider.
            let again = try await api.post("\(base)/\(id)/translation", ["target_langs": ["es"]], as: cast.session(0))
            #expect(Self.translations(again)["es"] == "[es] Good morning @{\(cast[1])}[es] , see https://parley.test/x")
            #expect(Self.translations(try await api.get("\(base)/\(id)", as: cast.session(0))).count == 2)
            let history = try await api.get("\(base)?message_ts=\(Int64.max / 2)&prev_limit=5", as: cast.session(1))
            let listed = (history.rawJSON["messages"] as? [[String: Any]])?.last?["translations"] as? [String: String]
            #expect(listed?.keys.sorted() == ["es", "ko"])
            #expect(provider.received.count == 2)
            // Only those who read the message may have it translated.
            let outsider = try await api.post("\(base)/\(id)/translation", ["target_langs": ["fr"]], as: cast.session(2))
            #expect(outsider.status == 404)
            #expect(try await api.get("\(base)/\(id)", as: cast.session(2)).status == 404)
            #expect(provider.received.count == 2)
        }
    }

    @Test func badTranslationRequestsAreRefusedWithTheDocumentedCodes() async throws {
        let provider = FakeTranslationProvider(.deepl)
        try await Self.withTranslatingAPI(provider) { api in
            let cast = try await api.cast("trbad", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            let base = "/v3/group_channels/\(channel)/messages"
            let id = try #require(try await api.post(base, ["message": "hi"], as: cast.session(0)).rawJSON["message_id"] as? Int)
            let admin = try await api.post(base, ["message_type": "ADMM", "message": "notice"])
            let adminID = try #require(admin.rawJSON["message_id"] as? Int)
            for (path, body, status, code) in [
                ("\(base)/\(id)/translation", ["target_langs": ["klingon"]], 400, 400111),
                ("\(base)/\(id)/translation", ["target_langs": ["hi"]], 400, 400111),  // Hindi: not a DeepL language
                ("\(base)/\(id)/translation", ["target_langs": ["de", "fr", "it", "es", "ja", "ko"]], 400, 400111),
                ("\(base)/\(id)/translation", ["target_langs": []], 400, 400111),
                ("\(base)/\(id)/translation", ["target_langs": "es"], 400, 400102),
                ("\(base)/\(id)/translation", [:], 400, 400105),
                ("\(base)/\(adminID)/translation", ["target_langs": ["es"]], 400, 400111),
                ("\(base)/999999999/translation", ["target_langs": ["es"]], 404, 400201),
                (base, ["message": "x", "target_langs": ["nope"]], 400, 400111),
                (base, ["message_type": "ADMM", "message": "x", "target_langs": ["es"]], 400, 400111)
            ] as [(String, [String: Any], Int, Int)] {
                let isAdminMessage = body["message_type"] as? String == "ADMM"
                let response = try await api.post(path, body, as: isAdminMessage ? .admin : cast.session(0))
                #expect(response.status == status, "\(path) \(body): \(response.text)")
                #expect(try response.code == code, "\(path) \(body)")
            }
            #expect(provider.received.isEmpty)
        }
    }

    @Test func whileTheProviderIsDownOnDemandIs503AndSendsStillSucceed() async throws {
        let provider = FakeTranslationProvider(.deepl)
        try await Self.withTranslatingAPI(provider) { api in
            let cast = try await api.cast("trdown", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            let base = "/v3/group_channels/\(channel)/messages"
            provider.script(Array(repeating: .fail(status: 456, body: #"{"message":"Quota exceeded"}"#), count: 20))
            let sent = try await api.post(base, ["message": "hello", "target_langs": ["es"]], as: cast.session(0))
            #expect(sent.status == 201)
            #expect(Self.translations(sent).isEmpty)
            let id = try #require(sent.rawJSON["message_id"] as? Int)
            let refused = try await api.post("\(base)/\(id)/translation", ["target_langs": ["es"]], as: cast.session(0))
            #expect(refused.status == 503)
            #expect(try refused.code == 500902)
        }
        // No provider configured at all.
        try await TestServer.withAPI { api in
            let cast = try await api.cast("trnone", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            let base = "/v3/group_channels/\(channel)/messages"
            let sent = try await api.post(base, ["message": "hello", "target_langs": ["es"]], as: cast.session(0))
            #expect(sent.status == 201)
            let id = try #require(sent.rawJSON["message_id"] as? Int)
            #expect(try await api.post("\(base)/\(id)/translation", ["target_langs": ["es"]], as: cast.session(0)).status == 503)
        }
    }

    @Test func aSendWaitsForItsTranslationsOnlyWithinTheLimitAndTheLateOnesFollow() async throws {
        let provider = FakeTranslationProvider(.libretranslate)
        try await Self.withTranslatingAPI(
            provider,
            {
                // Room for a machine busy with the rest of the suite: the quick provider answers well
                // within the limit, the slow one far beyond it.
                $0.translationSendLimit = .seconds(3)
                $0.translationLimit = .seconds(30)
            }
        ) { api in
            let cast = try await api.cast("trsend", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let base = "/v3/group_channels/\(channel)/messages"
            let reader = try await api.events(cast.tokens[cast[1]]!)
            // In time: stored with the message and in its event.
            let quick = try await api.post(base, ["message": "hello", "target_langs": ["de"]], as: cast.session(0))
            #expect(quick.status == 201)
            #expect(Self.translations(quick) == ["de": "[de] hello"])
            let received = try await reader.waitForEvent("message_received")
            #expect(((received["data"] as? [String: Any])?["translations"] as? [String: String]) == ["de": "[de] hello"])
            // The provider takes 10 s for the first language asked next: the send does not wait.
            provider.script([.delay(.seconds(10))])
            let started = ContinuousClock.now
            let slow = try await api.post(base, ["message": "later", "target_langs": ["fr"]], as: cast.session(0))
            let waited = ContinuousClock.now - started
            #expect(slow.status == 201)
            #expect(Self.translations(slow).isEmpty)
            #expect(waited < .seconds(8), "the send waited \(waited)")
            let id = try #require(slow.rawJSON["message_id"] as? Int)
            let updated = try await reader.waitFor(within: .seconds(30)) { frame in
                frame["type"] as? String == "message_updated" && (frame["data"] as? [String: Any])?["message_id"] as? Int == id
            }
            #expect(((updated["data"] as? [String: Any])?["translations"] as? [String: String]) == ["fr": "[fr] later"])
            #expect(Self.translations(try await api.get("\(base)/\(id)", as: cast.session(1))) == ["fr": "[fr] later"])
            reader.close()
        }
    }

    @Test func anEditIsTranslatedAgainIntoTheStoredLanguages() async throws {
        let provider = FakeTranslationProvider(.google)
        try await Self.withTranslatingAPI(provider) { api in
            let cast = try await api.cast("tredit", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            let base = "/v3/group_channels/\(channel)/messages"
            let sent = try await api.post(base, ["message": "first", "target_langs": ["es", "ja"]], as: cast.session(0))
            let id = try #require(sent.rawJSON["message_id"] as? Int)
            #expect(Self.translations(sent).count == 2)
            let edited = try await api.put("\(base)/\(id)", ["message": "second"], as: cast.session(0))
            #expect(Self.translations(edited) == ["es": "[es] second", "ja": "[ja] second"])
            #expect(provider.received.suffix(2).allSatisfy { $0.texts == ["second"] })
            // An edit that leaves the text alone asks nobody.
            let count = provider.received.count
            let retyped = try await api.put("\(base)/\(id)", ["custom_type": "note"], as: cast.session(0))
            #expect(Self.translations(retyped).count == 2)
            #expect(provider.received.count == count)
            // A deleted message keeps no translations.
            #expect(try await api.delete("\(base)/\(id)", as: cast.session(0)).status == 200)
            let removed = try await api.get("\(base)?message_ts=0&next_limit=5&prev_limit=0&include_removed=true")
            let row = (removed.rawJSON["messages"] as? [[String: Any]])?.first { $0["message_id"] as? Int == id }
            #expect((row?["translations"] as? [String: String])?.isEmpty == true)
        }
    }

    @Test func openChannelMessagesAreTranslatedToo() async throws {
        let provider = FakeTranslationProvider(.deepl)
        try await Self.withTranslatingAPI(provider) { api in
            let cast = try await api.cast("tropen", 2)
            let url = try #require(try await api.post("/v3/open_channels", ["name": "Lobby"]).rawJSON["channel_url"] as? String)
            #expect(try await api.put("/v3/open_channels/\(url)/enter", [:], as: cast.session(0)).status == 200)
            let base = "/v3/open_channels/\(url)/messages"
            let sent = try await api.post(base, ["message": "bonjour", "target_langs": ["en"]], as: cast.session(0))
            #expect(sent.status == 201, "\(sent.text)")
            #expect(Self.translations(sent) == ["en": "[EN-US] bonjour"])
            let id = try #require(sent.rawJSON["message_id"] as? Int)
            // Anyone may read an open channel's history, so anyone may have it translated.
            let translated = try await api.post("\(base)/\(id)/translation", ["target_langs": ["zh-CN"]], as: cast.session(1))
            #expect(Self.translations(translated) == ["en": "[EN-US] bonjour", "zh-CN": "[ZH-HANS] bonjour"])
        }
    }
}
