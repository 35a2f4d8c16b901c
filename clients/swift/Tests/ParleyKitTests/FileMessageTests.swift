import Foundation
import ParleyKit
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// File messages through ParleyKit: the upload reports its progress and can be cancelled; the
/// other member receives the message with a link that carries their own auth key.
@Suite struct FileMessageTests {
    @Test func anUploadReportsProgressAndArrives() async throws {
        let server = try await ParleyServer()
        let (alice, aliceId) = try await server.connected("alice")
        let (bob, bobId) = try await server.connected("bob")
        let heard = Recorder()
        bob.addChannelDelegate(heard, identifier: "test")
        let url = try await alice.groupChannels.create(.init(userIds: [aliceId, bobId])).channelURL

        let bytes = Data((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let reports = ProgressLog()
        var params = FileMessageParams(file: bytes, fileName: "notes \"2\".bin", mimeType: "application/octet-stream")
        params.customType = "attachment"
        let sent = try await alice.messages.sendFileMessage(url, params) { sent, total in reports.add(sent, total) }
        #expect(sent.isFileMessage && sent.file?.size == Int64(bytes.count) && sent.customType == "attachment")
        let progress = reports.all
        #expect(!progress.isEmpty)
        #expect(progress.last.map { $0.sent == $0.total && $0.total > Int64(bytes.count) } == true, "\(progress.suffix(3))")
        #expect(progress.map(\.sent) == progress.map(\.sent).sorted())

        #expect(await eventually { heard.received.count == 1 })
        let link = try #require(heard.received.first?.file?.url)
        #expect(link.contains("auth="))
        let (downloaded, response) = try await URLSession.shared.data(from: URL(string: link)!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(downloaded == bytes)
        await alice.disconnect()
        await bob.disconnect()
        server.stop()
    }

    @Test func aCancelledUploadSendsNothing() async throws {
        let server = try await ParleyServer()
        let (alice, aliceId) = try await server.connected("alice")
        let url = try await alice.groupChannels.create(.init(userIds: [aliceId])).channelURL
        let big = Data(count: 20 << 20)
        let upload = Task { try await alice.messages.sendFileMessage(url, FileMessageParams(file: big, fileName: "big.bin")) }
        try await Task.sleep(nanoseconds: 20_000_000)
        upload.cancel()
        let outcome = await upload.result
        #expect((try? outcome.get()) == nil)
        try await Task.sleep(nanoseconds: 500_000_000)
        let history = try await alice.messages.list(url, .init(point: .timestamp(Int64.max), previousLimit: 10))
        #expect(history.isEmpty)
        await alice.disconnect()
        server.stop()
    }
}

final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [(sent: Int64, total: Int64)] = []

    var all: [(sent: Int64, total: Int64)] { lock.withLock { reports } }
    func add(_ sent: Int64, _ total: Int64) { lock.withLock { reports.append((sent, total)) } }
}
