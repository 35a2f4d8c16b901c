import Foundation
import Testing

/// Issue 29.2: a socket's queue is bounded in bytes, not only in frames. One user's sockets that
/// never read are sent file messages with large `data` (a file message is rendered for each
/// socket: its URL carries the recipient's key); each is closed as too slow (4009) at the bound,
/// the server's memory grows by about the bound per socket, and a reading socket of another user
/// gets every message.
@Suite(.serialized) struct SlowSocketMemoryTests {
    static let stalledSockets = 16
    static let messages = 150
    /// Quotes escape to two bytes each in JSON (control characters, six each, are refused in
    /// text since issue 29.1): 65,000 of them are a 130 KB frame.
    static let data = String(repeating: "\"", count: 65_000)

    @Test func stalledSocketsCloseAtTheByteBoundWithoutHoldingMemory() async throws {
        try await TestServer.withAPI({ $0.events.socketQueueBytes = 1 << 20 }) { api in
            let cast = try await api.cast("stall", 3)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1], cast[2]]])
            let reader = try await api.events(cast.tokens[cast[2]]!)
            _ = try await reader.hello()
            var stalled: [RawConnection] = []
            for _ in 0..<Self.stalledSockets {
                // A small receive buffer: what the server sends waits in the server, not here.
                let socket = try api.rawEventStream(cast.tokens[cast[1]]!, receiveBuffer: 4096)
                _ = await socket.read(timeout: .seconds(10)) { $0.contains("\"ping_interval_ms\"") }
                stalled.append(socket)
            }
            let before = ProcessMemory.residentBytes()
            var peak = before
            for index in 0..<Self.messages {
                let sent = try await api.upload(
                    channel, ["user_id": cast[0], "data": Self.data, "custom_type": "\(index)"],
                    file: FormFile(bytes: Array("file \(index)".utf8)))
                #expect(sent.status == 201, "\(sent.text)")
                peak = max(peak, ProcessMemory.residentBytes())
            }
            #expect(
                try await eventually(within: .seconds(60)) { reader.events(ofType: "message_received").count == Self.messages },
                "the reader has \(reader.events(ofType: "message_received").count)")
            peak = max(peak, ProcessMemory.residentBytes())
            // Each stalled socket was let go: what it holds ends (with the close frame when it got
            // out before the connection closed) long before all the messages.
            let endings = await withTaskGroup(of: (bytes: [UInt8], closed: Bool).self) { group in
                for socket in stalled { group.addTask { await socket.readBytes(timeout: .seconds(20)) { _ in false } } }
                return await group.reduce(into: []) { $0.append($1) }
            }
            for (bytes, closed) in endings {
                let received = bytes.count
                #expect(closed, "a stalled socket is still open after \(received) bytes")
                #expect(received < Self.messages * Self.data.utf8.count)
                if let code = Self.closeCode(in: bytes) { #expect(code == 4009) }
            }
            let after = ProcessMemory.residentBytes()
            print(
                "slow sockets: RSS \(before >> 20) MiB, peak +\((peak - before) >> 20) MiB, after the close +\((after - before) >> 20) MiB")
            // Unbounded, the 16 sockets hold 150 frames of 130 KB each (about 310 MB); bounded,
            // about 1 MiB each. The reader's client keeps its 20 MB of frames, and other suites
            // run in this process too, hence the room.
            #expect(peak - before < 160 << 20, "RSS grew \((peak - before) >> 20) MiB")
            reader.close()
        }
    }

    /// The code of the server's close frame (0x88, a length under 126, the code) among `bytes`.
    static func closeCode(in bytes: [UInt8]) -> UInt16? {
        guard bytes.count >= 4 else { return nil }
        for start in stride(from: bytes.count - 4, through: 0, by: -1) where bytes[start] == 0x88 && bytes[start + 1] >= 2 {
            guard start + 2 + Int(bytes[start + 1]) == bytes.count else { continue }
            return UInt16(bytes[start + 2]) << 8 | UInt16(bytes[start + 3])
        }
        return nil
    }
}
