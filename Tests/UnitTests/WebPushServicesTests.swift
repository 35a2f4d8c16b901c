import ByteCoding
import Crypto
import CurlHTTP
import Foundation
import OutboundPolicy
import ParleyCore
import Testing

@testable import ParleyPush

/// Issue 50.3: Web Push endpoints only at the push services the operator lists, checked at
/// registration (PushTokenTests) and before each push (here, with no network: the provider
/// refuses before it connects).
@Suite struct WebPushServicesTests {
    @Test func theBrowsersServicesAreAdmittedAndNothingElse() {
        let services = WebPushServices.browsers
        for endpoint in [
            "https://fcm.googleapis.com/fcm/send/abc:APA91b", "https://updates.push.services.mozilla.com/wpush/v2/gAAAA",
            "https://web.push.apple.com/QGuQyavXutnMHl", "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
            "HTTPS://FCM.GOOGLEAPIS.COM/fcm/send/x", "https://fcm.googleapis.com:443/fcm/send/x"
        ] {
            #expect(services.admits(endpoint), "\(endpoint)")
        }
        for endpoint in [
            "http://fcm.googleapis.com/fcm/send/x", "https://fcm.googleapis.com:8443/x", "https://fcm.googleapis.com.evil.example/x",
            "https://evilfcm.googleapis.com/x", "https://notify.windows.com/w/", "https://evilnotify.windows.com/w/",
            "https://user@fcm.googleapis.com/x", "https://127.0.0.1/x", "https://10.0.0.7/x", "not a url", ""
        ] {
            #expect(!services.admits(endpoint), "\(endpoint)")
        }
    }

    @Test func theOperatorsListIsOriginsWithAnOptionalWildcard() throws {
        let services = try WebPushServices(["https://127.0.0.1:8443", "https://*.push.example.com"])
        #expect(services.admits("https://127.0.0.1:8443/webpush/1"))
        #expect(!services.admits("https://127.0.0.1/webpush/1"))
        #expect(services.admits("https://eu.push.example.com/x"))
        #expect(!services.admits("https://push.example.com/x"))
        #expect(!services.admits("https://fcm.googleapis.com/fcm/send/x"), "a list replaces the default")
        for bad in ["http://push.example.com", "https://push.example.com/path", "https://a*.example.com", "https://*.", "push.example.com"]
        {
            #expect(throws: WebPushServiceListError.self, "\(bad)") { try WebPushServices([bad]) }
        }
    }

    @Test func aPushToAnEndpointNoLongerListedIsNotSent() async throws {
        let key = P256.Signing.PrivateKey()
        let client = CurlClient()
        defer { client.shutdown() }
        let provider = WebPushProvider(
            settings: .init(key: key, subject: "mailto:ops@example.com", services: try WebPushServices(["https://push.example.com"])),
            client: client, outbound: OutboundGuard(allowHosts: ["127.0.0.1:9"]), authorities: nil, clock: .system)
        let subscriber = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        let token = PushToken(
            type: .web, token: "https://127.0.0.1:9/was-listed",
            webKeys: WebPushKeys(p256dh: Base64URL.encode(Array(subscriber)), auth: Base64URL.encode(Array(repeating: 1, count: 16))))
        let outcome = await provider.send(DevicePush(token: token, notice: PushNoticeTests().notice(), expiresAt: 2_000_000_000))
        #expect(outcome == .failed(reason: "not_a_push_service"))
    }
}
