import Foundation
import Testing

/// Issue 29.14: frames RFC 6455 forbids fail the event stream with 1002 instead of being
/// skipped, and a close frame is echoed only when its code is one a client may send.
@Suite struct ClientFrameRuleTests {
    private static let frame = EventStreamFrameTests.clientFrame

    @Test func framesBreakingTheProtocolAreAnsweredWith1002() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("rules", 1)
            var rsv1 = Self.frame(0x1, true, Array("{}".utf8))
            rsv1[0] |= 0x40
            var rsv3 = Self.frame(0x9, true, [])
            rsv3[0] |= 0x10
            let cases: [(String, [[UInt8]])] = [
                ("RSV1 on a text frame", [rsv1]),
                ("RSV3 on a ping", [rsv3]),
                ("opcode 0x3", [Self.frame(0x3, true, [])]),
                ("opcode 0x7", [Self.frame(0x7, true, [])]),
                ("opcode 0xB", [Self.frame(0xB, true, [])]),
                ("opcode 0xF", [Self.frame(0xF, true, [])]),
                ("an orphan continuation", [Self.frame(0x0, true, Array("x".utf8))]),
                ("a message inside a fragmented one", [Self.frame(0x1, false, Array("{".utf8)), Self.frame(0x1, true, Array("}".utf8))])
            ]
            for (what, frames) in cases {
                let answer = try await closeAnswer(to: frames, api, cast.tokens[cast[0]]!)
                #expect(answer.map(Self.code) == 1002, "\(what): \(String(describing: answer))")
            }
        }
    }

    @Test func aCloseIsEchoedOnlyWithACodeAClientMaySend() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("closes", 1)
            func close(_ payload: [UInt8]) -> [[UInt8]] { [Self.frame(0x8, true, payload)] }
            func close(code: UInt16) -> [[UInt8]] { close([UInt8(code >> 8), UInt8(code & 0xFF)] + Array("bye".utf8)) }
            for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535] {
                let answer = try await closeAnswer(to: close(code: code), api, cast.tokens[cast[0]]!)
                #expect(answer.map(Self.code) == 1002, "\(code) is refused")
            }
            for code: UInt16 in [1000, 1001, 1003, 1007, 1011, 1014, 3000, 4999] {
                let answer = try await closeAnswer(to: close(code: code), api, cast.tokens[cast[0]]!)
                #expect(answer.map(Self.code) == code, "\(code) is echoed")
            }
            #expect(try await closeAnswer(to: close([0x03]), api, cast.tokens[cast[0]]!).map(Self.code) == 1002, "a 1-byte payload")
            #expect(try await closeAnswer(to: close([]), api, cast.tokens[cast[0]]!) == [], "no code: none in the answer")
            let badReason = try await closeAnswer(to: close([0x03, 0xE8, 0xC3, 0x28]), api, cast.tokens[cast[0]]!)
            #expect(badReason.map(Self.code) == 1007, "a reason that is not UTF-8")
        }
    }

    /// The payload of the close frame the server sends after `frames` on a fresh stream.
    private func closeAnswer(to frames: [[UInt8]], _ api: API, _ token: String) async throws -> [UInt8]? {
        let raw = try api.rawEventStream(token)
        defer { raw.hangUp() }
        let hello = await raw.readBytes(timeout: .seconds(10)) { Self.frames(in: $0).contains { $0.opcode == 0x1 } }
        for frame in frames { raw.send(frame) }
        let rest = await raw.readBytes(timeout: .seconds(5)) { Self.frames(in: hello.bytes + $0).contains { $0.opcode == 0x8 } }
        return Self.frames(in: hello.bytes + rest.bytes).first { $0.opcode == 0x8 }?.payload
    }

    private static func code(_ payload: [UInt8]) -> UInt16? {
        payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
    }

    /// The whole frames the server sent after its 101 answer (unmasked, RFC 6455 §5.2).
    private static func frames(in bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
        guard let headerEnd = bytes.indices.first(where: { bytes[$0...].starts(with: Array("\r\n\r\n".utf8)) }) else { return [] }
        var frames: [(opcode: UInt8, payload: [UInt8])] = []
        var index = headerEnd + 4
        while index + 2 <= bytes.count {
            var length = Int(bytes[index + 1] & 0x7F)
            var start = index + 2
            if length == 126 {
                guard start + 2 <= bytes.count else { break }
                length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                start += 2
            } else if length == 127 {
                guard start + 8 <= bytes.count else { break }
                length = bytes[start..<start + 8].reduce(0) { $0 << 8 | Int($1) }
                start += 8
            }
            guard start + length <= bytes.count else { break }
            frames.append((bytes[index] & 0x0F, Array(bytes[start..<start + length])))
            index = start + length
        }
        return frames
    }
}
