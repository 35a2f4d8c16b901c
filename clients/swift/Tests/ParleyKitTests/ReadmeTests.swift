import Foundation
import ParleyKit
import Testing

/// The README's first ten lines, as written there (the server's address and token aside), run
/// against the real server: the snippet compiles and does what it says.
@Suite struct ReadmeTests {
    final class Inbox: ChannelDelegate {
        func channel(_ channel: ChannelRef, didReceive message: Message) {
            print("\(message.user?.nickname ?? "admin"): \(message.message)")
        }
    }

    @Test func theFirstTenLines() async throws {
        let server = try await ParleyServer()
        let (alice, tokenFromYourBackend) = try await server.user("alice")
        let (bob, _) = try await server.user("bob")

        let parley = ParleyClient(baseURL: server.baseURL)
        try await parley.connect(userId: alice, sessionToken: tokenFromYourBackend)
        let inbox = Inbox()  // delegates are held weakly: keep a strong reference
        parley.addChannelDelegate(inbox, identifier: "inbox")
        let channel = try await parley.groupChannels.create(.init(userIds: [alice, bob], isDistinct: true))
        _ = try await parley.messages.sendUserMessage(channel.channelURL, .init(message: "Hi Bob!"))

        let history = try await parley.messages.list(channel.channelURL, .init(point: .timestamp(.max), previousLimit: 5))
        #expect(history.map(\.message) == ["Hi Bob!"])
        await parley.disconnect()
        server.stop()
    }
}
