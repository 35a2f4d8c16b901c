import ByteCoding
import Crypto
import Foundation
import ParleyCore
import Testing

/// `PageTokenCodec` (API.md §1.6): a token gives back its position for the list it was issued for,
/// and anything else (another list, another key, a changed byte) is 400109.
@Suite struct PageTokenCodecTests {
    let codec = PageTokenCodec(key: SymmetricKey(data: Data(repeating: 7, count: 32)))
    let scope = "my_group_channels:alice:order=latest_last_message"

    private func isRefused(_ token: String, scope: String? = nil, codec: PageTokenCodec? = nil) -> Bool {
        do {
            _ = try (codec ?? self.codec).decode(token, scope: scope ?? self.scope)
            return false
        } catch let error as ParleyError {
            return error == .invalidPageToken
        } catch {
            return false
        }
    }

    @Test(arguments: [
        [], ["1700000000000", "channel_a"], [""], ["a.b.c", "x=y&z", "\u{E9}\u{1F600}", "quote\"back\\slash"], ["\n", "\u{0}"],
        Array(repeating: "long", count: 200)
    ])
    func positionsComeBackUnchanged(_ position: [String]) throws {
        let token = codec.encode(scope: scope, position: position)
        #expect(try codec.decode(token, scope: scope) == position)
    }

    /// Tokens travel in query strings: URL-safe base64 without padding, one dot.
    @Test func tokensAreURLSafe() {
        let token = codec.encode(scope: scope, position: ["??>>", "\u{FFFF}\u{FFFF}"])
        #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        #expect(token.split(separator: ".").count == 2)
    }

    @Test func aTokenIsRefusedForAnotherList() {
        let token = codec.encode(scope: scope, position: ["1"])
        #expect(isRefused(token, scope: scope + "&custom_types=x"))
        #expect(isRefused(token, scope: ""))
        #expect(isRefused(token, scope: String(scope.dropLast())))
    }

    @Test func aTokenIsRefusedUnderAnotherKey() {
        let token = codec.encode(scope: scope, position: ["1"])
        let other = PageTokenCodec(key: SymmetricKey(data: Data(repeating: 8, count: 32)))
        #expect(isRefused(token, codec: other))
    }

    /// Every single-character change to the payload or the signature is caught. (The last
    /// character of a base64 segment may carry unused bits: changing only those changes no byte.)
    @Test func everyAlteredCharacterIsRefused() {
        let position = ["1700000000000", "c"]
        let token = Array(codec.encode(scope: scope, position: position))
        let dot = token.firstIndex(of: ".")!
        for index in token.indices where index != dot {
            var altered = token
            altered[index] = token[index] == "A" ? "B" : "A"
            let decoded = try? codec.decode(String(altered), scope: scope)
            let lastOfSegment = index == dot - 1 || index == token.count - 1
            #expect(decoded == nil || (lastOfSegment && decoded == position), "character \(index) altered")
        }
    }

    /// A signed payload of another shape (not a list of strings) is refused too.
    @Test func aValidSignatureOverSomethingElseIsRefused() {
        let payload = Array(#"{"a":1}"#.utf8)
        let signature = HMAC<SHA256>.authenticationCode(
            for: Array(scope.utf8) + [0] + payload, using: SymmetricKey(data: Data(repeating: 7, count: 32)))
        let forged = Base64URL.encode(payload) + "." + Base64URL.encode(Array(signature))
        #expect(isRefused(forged))
    }

    @Test(arguments: ["", ".", "abc", "a.b.c", "..", "\u{E9}.\u{E9}", "!!!!.????", "W10.", ".AAAA"])
    func malformedTokensAreRefused(_ token: String) {
        #expect(isRefused(token))
    }

    @Test func splicingPayloadAndSignatureOfTwoTokensIsRefused() {
        let first = codec.encode(scope: scope, position: ["1"]).split(separator: ".")
        let second = codec.encode(scope: scope, position: ["2"]).split(separator: ".")
        #expect(isRefused("\(first[0]).\(second[1])"))
        #expect(isRefused("\(second[0]).\(first[1])"))
    }
}
