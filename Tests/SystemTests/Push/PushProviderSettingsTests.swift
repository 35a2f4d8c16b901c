import ByteCoding
import Crypto
import Foundation
import ParleyContainer
import ParleyPush
import Testing

extension PushWithProviders {
    /// The providers come from configuration (API.md §12.5): the API lists them without secrets,
    /// browsers get the VAPID key, and a misconfigured provider stops the server at start.
    @Suite struct PushProviderSettingsTests: PushFixtures {
        @Test func theAdminSeesTheConfiguredProvidersWithoutSecrets() async throws {
            try await Self.withPushServer { api, standIn, _ in
                let apns = try await api.get("/v3/applications/push/apns")
                #expect(apns.status == 200)
                let listed = try #require((apns.rawJSON["push_configurations"] as? [[String: Any]])?.first)
                #expect(listed["push_type"] as? String == "apns" && listed["id"] as? String == standIn.handshake.apns_key_id)
                #expect(listed["apns_name"] as? String == standIn.handshake.apns_topic)
                let gcm = try await api.get("/v3/applications/push/gcm")
                #expect((gcm.rawJSON["push_configurations"] as? [[String: Any]])?.first?["sender_id"] as? String == "parley-test")
                let key = try String(contentsOfFile: standIn.handshake.fcm_credentials_file, encoding: .utf8)
                let secret = try #require(
                    (try JSONSerialization.jsonObject(with: Data(key.utf8)) as? [String: Any])?["private_key"] as? String)
                for type in ["apns", "gcm", "huawei", "web"] {
                    let text = try await api.get("/v3/applications/push/\(type)").text
                    #expect(
                        !text.contains("PRIVATE KEY") && !text.contains(secret.prefix(60))
                            && !text.contains(standIn.handshake.hms_app_secret))
                }
                #expect(try await api.get("/v3/applications/push/carrier-pigeon").status == 400)
                let cast = try await api.cast("pushcfg", 1)
                #expect(try await api.get("/v3/applications/push/apns", as: cast.session(0)).status == 403)

                // Any caller gets the key browsers subscribe with: the public half of the configured one.
                let vapid = try await api.get("/v3/push/web/vapid_public_key", as: cast.session(0))
                #expect(vapid.status == 200)
                let pem = try String(contentsOfFile: standIn.handshake.vapid_private_key_file, encoding: .utf8)
                let expected = try P256.Signing.PrivateKey(pemRepresentation: pem).publicKey.x963Representation
                #expect(vapid.rawJSON["vapid_public_key"] as? String == Base64URL.encode(Array(expected)))
            }
        }

        @Test func withoutProvidersThereIsNoKeyAndNothingListed() async throws {
            try await TestServer.withAPI { api async throws in
                #expect(try await api.get("/v3/push/web/vapid_public_key").status == 404)
                #expect((try await api.get("/v3/applications/push/apns").rawJSON["push_configurations"] as? [Any])?.isEmpty == true)
            }
        }

        @Test func aMisconfiguredProviderStopsTheServerAtStart() throws {
            var settings = PushProviderSettings()
            settings.apnsKeyFile = "/nonexistent/AuthKey.p8"
            settings.apnsKeyID = "K"
            settings.apnsTeamID = "T"
            settings.apnsTopic = "com.example"
            #expect(throws: PushConfigurationError.self) { try settings.providers(outbound: .init(), clock: .system) }
            var incomplete = PushProviderSettings()
            incomplete.hmsAppID = "app"
            #expect(throws: PushConfigurationError.self) { try incomplete.providers(outbound: .init(), clock: .system) }
            var subject = PushProviderSettings()
            subject.vapidKeyFile = "/dev/null"
            subject.vapidSubject = "ops@example.com"
            #expect(throws: PushConfigurationError.self) { try subject.providers(outbound: .init(), clock: .system) }
        }
    }
}
