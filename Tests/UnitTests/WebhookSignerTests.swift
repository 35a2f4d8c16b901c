import ByteCoding
import Crypto
import Foundation
import ParleyWebhooks
import Testing

/// `WebhookSigner` (API.md §10.2): Standard Webhooks' `webhook-signature` checked against the
/// standard's published test vector, and Sendbird's `x-sendbird-signature` against an
/// independent HMAC.
@Suite struct WebhookSignerTests {
    // The sign test of Standard Webhooks' reference libraries, the same values in each:
    // github.com/standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts
    // ("sign function works"), libraries/python/tests/test_webhooks.py (test_sign_function) and
    // libraries/go/webhook_test.go (TestWebhookSign).
    static let vectorSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let vectorID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
    static let vectorTimestamp: Int64 = 1_614_265_330
    static let vectorPayload = #"{"test": 2432232314}"#
    static let vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="

    @Test func theStandardsPublishedVectorIsMatched() {
        let signature = WebhookSigner.standardSignature(
            id: Self.vectorID, timestamp: Self.vectorTimestamp, body: Self.vectorPayload, secrets: [Self.vectorSecret])
        #expect(signature == Self.vectorSignature)
    }

    /// Each of id, timestamp and body is signed: changing any changes the signature.
    @Test func everySignedPartMatters() {
        func sign(id: String = Self.vectorID, timestamp: Int64 = Self.vectorTimestamp, body: String = Self.vectorPayload) -> String {
            WebhookSigner.standardSignature(id: id, timestamp: timestamp, body: body, secrets: [Self.vectorSecret])
        }
        let changed = [
            sign(id: "msg_p5jXN8AQM9LWM0D4loKWxJeK"), sign(timestamp: Self.vectorTimestamp + 1), sign(body: #"{"test":2432232314}"#),
            sign(body: Self.vectorPayload + "\n")
        ]
        for signature in changed {
            #expect(signature.hasPrefix("v1,") && signature != Self.vectorSignature)
        }
        #expect(Set(changed).count == changed.count)
    }

    /// During a rotation both secrets sign: one `v1,` entry per secret, space-separated, in order.
    @Test func aRotationSignsWithEverySecret() {
        let other = "whsec_" + Data(repeating: 0x42, count: 24).base64EncodedString()
        let both = WebhookSigner.standardSignature(
            id: Self.vectorID, timestamp: Self.vectorTimestamp, body: Self.vectorPayload, secrets: [other, Self.vectorSecret])
        let entries = both.split(separator: " ").map(String.init)
        #expect(entries.count == 2)
        #expect(entries[1] == Self.vectorSignature)
        #expect(entries[0].hasPrefix("v1,") && entries[0] != Self.vectorSignature)
        #expect(WebhookSigner.standardSignature(id: "x", timestamp: 1, body: "", secrets: []) == "")
    }

    /// A secret whose key part is not base64 signs nothing (rather than signing with garbage).
    @Test func anUndecodableSecretIsSkipped() {
        let signature = WebhookSigner.standardSignature(
            id: Self.vectorID, timestamp: Self.vectorTimestamp, body: Self.vectorPayload,
            secrets: ["whsec_!!!not base64!!!", Self.vectorSecret])
        #expect(signature == Self.vectorSignature)
    }

    @Test func newSecretsAreTwentyFourRandomBytesInBase64() throws {
        let secrets = (0..<20).map { _ in WebhookSigner.newSecret() }
        for secret in secrets {
            #expect(secret.hasPrefix("whsec_"))
            let key = try #require(Data(base64Encoded: String(secret.dropFirst(6))))
            #expect(key.count == 24)
            // It signs, so the dispatcher can use it as issued.
            #expect(WebhookSigner.standardSignature(id: "m", timestamp: 1, body: "{}", secrets: [secret]).hasPrefix("v1,"))
        }
        #expect(Set(secrets).count == secrets.count)
    }

    // MARK: Sendbird

    /// Sendbird's receivers verify `x-sendbird-signature`: the hex HMAC-SHA256 of the raw body,
    /// keyed with the API token's UTF-8 bytes. Computed here with swift-crypto directly.
    @Test(arguments: [
        ("{\"category\":\"group_channel:message_send\"}", "0123456789abcdef0123456789abcdef01234567"),
        ("", "token"),
        ("{\"message\":\"caf\u{E9} \u{1F600}\"}", "t\u{F6}ken-with-unicode")
    ])
    func theSendbirdSignatureIsTheHexHMACOfTheBody(_ body: String, _ token: String) {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(body.utf8), using: SymmetricKey(data: Data(token.utf8)))
        let expected = mac.map { String(format: "%02x", $0) }.joined()
        let signature = WebhookSigner.sendbirdSignature(body: body, apiToken: token)
        #expect(signature == expected)
        #expect(signature.count == 64 && signature.allSatisfy { "0123456789abcdef".contains($0) })
    }

    /// RFC 4231 test case 2 (key "Jefe"), as a check on the hex encoding independent of swift-crypto.
    @Test func theSendbirdSignatureMatchesRFC4231() {
        #expect(
            WebhookSigner.sendbirdSignature(body: "what do ya want for nothing?", apiToken: "Jefe")
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func theSendbirdSignatureDependsOnTheToken() {
        #expect(WebhookSigner.sendbirdSignature(body: "{}", apiToken: "a") != WebhookSigner.sendbirdSignature(body: "{}", apiToken: "b"))
    }
}
