// parley-chat: a command-line chat client on ParleyKit. It signs a user in, opens a channel (a
// distinct 1-to-1 channel with `--with`, or `--channel URL`), prints the last messages and what
// arrives, and sends each line typed.
//
//   swift run parley-chat --server http://127.0.0.1:8080 --user alice --token <session token> --with bob
import Foundation
import ParleyKit

/// Prints what happens in the open channel.
final class Printer: ChannelDelegate, ConnectionDelegate, @unchecked Sendable {
    let channelURL: String
    let me: String

    init(channelURL: String, me: String) {
        self.channelURL = channelURL
        self.me = me
    }

    func channel(_ channel: ChannelRef, didReceive message: Message) {
        guard channel.channelURL == channelURL, message.user?.userId != me else { return }
        print("\(message.user?.nickname ?? "admin"): \(message.message)")
    }

    func channelDidUpdateTypingStatus(_ channel: ChannelRef, typingUsers: [User]) {
        let others = typingUsers.filter { $0.userId != me }.map(\.nickname)
        if channel.channelURL == channelURL, !others.isEmpty { print("(\(others.joined(separator: ", ")) typing…)") }
    }

    func didStartReconnection() { print("(reconnecting…)") }
    func didSucceedReconnection() { print("(connected again)") }
    func didDisconnect(userId: String, reason: DisconnectReason) { print("(disconnected: \(reason))") }
}

func option(_ name: String) -> String? {
    guard let index = CommandLine.arguments.firstIndex(of: "--\(name)"), index + 1 < CommandLine.arguments.count else { return nil }
    return CommandLine.arguments[index + 1]
}

guard let server = option("server").flatMap(URL.init(string:)), let user = option("user"), let token = option("token") else {
    print("usage: parley-chat --server URL --user USER_ID --token SESSION_TOKEN (--with USER_ID | --channel CHANNEL_URL)")
    exit(2)
}
let parley = ParleyClient(baseURL: server)
do {
    let me = try await parley.connect(userId: user, sessionToken: token)
    let channelURL: String
    if let url = option("channel") {
        channelURL = url
    } else if let other = option("with") {
        channelURL = try await parley.groupChannels.create(.init(userIds: [user, other], isDistinct: true)).channelURL
    } else {
        print("name a channel (--channel) or a user to talk to (--with)")
        exit(2)
    }
    let printer = Printer(channelURL: channelURL, me: user)
    parley.addChannelDelegate(printer, identifier: "printer")
    parley.addConnectionDelegate(printer, identifier: "printer")
    print("signed in as \(me.nickname.isEmpty ? me.userId : me.nickname); channel \(channelURL)")
    for message in try await parley.messages.list(channelURL, .init(point: .timestamp(.max), previousLimit: 10)) {
        print("\(message.user?.nickname ?? "admin"): \(message.message)")
    }
    try await parley.receipts.markAsRead(channelURL)
    while let line = readLine() {
        guard !line.isEmpty else { continue }
        _ = try await parley.messages.sendUserMessage(channelURL, .init(message: line))
    }
    await parley.disconnect()
} catch {
    print("error: \(error)")
    exit(1)
}
