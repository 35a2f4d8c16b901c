import ByteCoding
import Crypto
import CurlHTTP
import Foundation
import Testing

@testable import ParleyPush

/// The providers' protocol pieces that need no network: Web Push encryption against RFC 8291's
/// own example, the JWTs' signatures, and how FCM's errors are read.
@Suite struct PushProviderRulesTests {
    private func bytes(_ base64URL: String) -> [UInt8] { Base64URL.decode(Substring(base64URL))! }

    @Test func webPushEncryptionReproducesRFC8291AppendixA() throws {
        let serverKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
        #expect(
            Base64URL.encode(Array(serverKey.publicKey.x963Representation))
                == "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
        let body = try WebPushEncryption.encrypt(
            Array("When I grow up, I want to be a watermelon".utf8),
            subscriberKey: bytes("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
            authSecret: bytes("BTBZMqHH6r4Tts7J_aSIgg"), serverKey: serverKey, salt: bytes("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(
            Base64URL.encode(body)
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
    }

    @Test func aBrokenSubscriberKeyIsRefused() {
        #expect(throws: WebPushEncryption.Failure.self) {
            try WebPushEncryption.encrypt(
                [1], subscriberKey: [4] + [UInt8](repeating: 7, count: 64), authSecret: [UInt8](repeating: 0, count: 16))
        }
    }

    @Test func es256TokensCarryARawSignatureThatVerifies() throws {
        let key = P256.Signing.PrivateKey()
        let token = try JSONWebToken.es256(header: ["kid": "KEY1"], claims: ["iss": "TEAM", "iat": 1_700_000_000], key: key)
        let parts = token.split(separator: ".")
        #expect(parts.count == 3)
        let header = try JSONSerialization.jsonObject(with: Data(Base64URL.decode(parts[0])!)) as! [String: String]
        #expect(header == ["alg": "ES256", "kid": "KEY1", "typ": "JWT"])
        let claims = try JSONSerialization.jsonObject(with: Data(Base64URL.decode(parts[1])!)) as! [String: Any]
        #expect(claims["iss"] as? String == "TEAM" && claims["iat"] as? Int == 1_700_000_000)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Base64URL.decode(parts[2])!)
        #expect(signature.rawRepresentation.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)))
        #expect(!P256.Signing.PrivateKey().publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)))
    }

    @Test func fcmDeclaresATokenDeadOnlyForTheTokenItself() {
        func answer(_ status: Int, _ body: String) -> OutboundResponse {
            OutboundResponse(status: status, headers: [], body: Array(body.utf8))
        }
        let unregistered = """
            {"error":{"code":404,"status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}
            """
        let badToken = """
            {"error":{"code":400,"status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"},{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.token","description":"Invalid registration token"}]}]}}
            """
        let badPayload = """
            {"error":{"code":400,"status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.data","description":"too big"}]}]}}
            """
        #expect(FCMProvider.declaresTokenDead(answer(404, unregistered)))
        #expect(FCMProvider.declaresTokenDead(answer(400, badToken)))
        #expect(!FCMProvider.declaresTokenDead(answer(400, badPayload)))
        #expect(!FCMProvider.declaresTokenDead(answer(500, unregistered)))
        #expect(!FCMProvider.declaresTokenDead(answer(404, "not json")))
    }

    @Test func answersWithoutSpecificsAreRetriedOrFailedByStatus() {
        func outcome(_ status: Int, retryAfter: String? = nil) -> PushOutcome {
            .from(OutboundResponse(status: status, headers: retryAfter.map { [("Retry-After", $0)] } ?? [], body: []))
        }
        #expect(outcome(200) == .delivered)
        #expect(outcome(201) == .delivered)
        #expect(outcome(429, retryAfter: "7") == .retry(after: .seconds(7), reason: "throttled"))
        #expect(outcome(503) == .retry(after: nil, reason: "provider_error"))
        #expect(outcome(403) == .failed(reason: "credentials"))
        #expect(outcome(413) == .failed(reason: "refused_413"))
        #expect(PushOutcome.from(OutboundError.timedOut) == .retry(after: nil, reason: "timeout"))
    }

    @Test func theVAPIDAudienceIsTheEndpointsOrigin() {
        #expect(WebPushProvider.origin(of: "https://push.example.com/wpush/v2/abc?x=1") == "https://push.example.com")
        #expect(WebPushProvider.origin(of: "https://127.0.0.1:8443/webpush/push/1") == "https://127.0.0.1:8443")
        #expect(WebPushProvider.origin(of: "https://[::1]:9/x") == "https://[::1]:9")
    }
}
