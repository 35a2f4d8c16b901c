import Foundation
import Testing

/// The WebSocket frames a client sends the event stream: fragments, the 16 KiB limit, pings and masking (RFC 6455).
@Suite struct EventStreamFrameTests {
    /// A client's message may come in fragments; one longer than 16 KiB closes the socket (1009).
    @Test func clientFramesMayBeFragmentedAndAreLimitedTo16KiB() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("frag", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let watcher = try await api.events(cast.tokens[cast[1]]!)
            _ = try await watcher.hello()
            let raw = try api.rawEventStream(cast.tokens[cast[0]]!)
            _ = await raw.read(timeout: .seconds(10)) { $0.contains("\"ping_interval_ms\"") }
            let typing = Array(#"{"type":"typing_start","channel_url":"\#(channel)"}"#.utf8)
            raw.send(Self.clientFrame(opcode: 0x1, fin: false, Array(typing[..<10])))
            raw.send(Self.clientFrame(opcode: 0x0, fin: true, Array(typing[10...])))
            let started = try await watcher.waitForEvent("typing_started")
            #expect(((started["data"] as? [String: Any])?["user"] as? [String: Any])?["user_id"] as? String == cast[0])
            raw.send(Self.clientFrame(opcode: 0x1, fin: true, Array(repeating: UInt8(ascii: "x"), count: 20_000)))
            let rest = await raw.readUntilClosed(timeout: .seconds(10))
            #expect(rest.closed)
            // The close frame, 0x88 0x02 then 1009 (0x03 0xF1), as its bytes decode.
            let bytes = Array(rest.text.utf8)
            let close: [UInt8] = [0xEF, 0xBF, 0xBD, 0x02, 0x03]
            #expect(bytes.indices.contains { bytes[$0...].starts(with: close) })
            watcher.close()
        }
    }

    /// A client's ping is answered with a pong carrying its payload; an unmasked client frame is
    /// a protocol error (1002, RFC 6455 §5.1).
    @Test func pingsAreAnsweredAndUnmaskedFramesRefused() async throws {
        try await TestServer.withAPI { api in
            let cast = try await api.cast("pong", 1)
            let raw = try api.rawEventStream(cast.tokens[cast[0]]!)
            _ = await raw.read(timeout: .seconds(10)) { $0.contains("\"ping_interval_ms\"") }
            raw.send(Self.clientFrame(opcode: 0x9, fin: true, Array("knock".utf8)))
            let pong = "\u{FFFD}\u{05}knock"
            #expect(await raw.read(timeout: .seconds(10)) { $0.contains(pong) }.text.contains(pong))
            raw.send([0x81, 0x02] + Array("hi".utf8))
            let rest = await raw.readUntilClosed(timeout: .seconds(10))
            #expect(rest.closed)
            // 0x88, a length, then 1002 (0x03 0xEA), as its bytes decode.
            let bytes = Array(rest.text.utf8)
            #expect(bytes.indices.contains { bytes[$0...].starts(with: [0x03, 0xEF, 0xBF, 0xBD]) })
        }
    }

    /// A masked client frame (RFC 6455 §5.2).
    static func clientFrame(opcode: UInt8, fin: Bool, _ payload: [UInt8]) -> [UInt8] {
        let mask: [UInt8] = [0x11, 0x22, 0x33, 0x44]
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }
}
