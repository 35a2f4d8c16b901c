import Foundation
import ParleyKit
import Testing

/// The seeds' operations through ParleyKit, each against the real server.
@Suite struct OperationTests {
    @Test func groupChannelOperations() async throws {
        let server = try await ParleyServer()
        let (aliceId, aliceToken) = try await server.user("alice")
        let (bobId, bobToken) = try await server.user("bob")
        let (carolId, carolToken) = try await server.user("carol")
        try await server.admin("PUT", "/v3/users/\(carolId)/channel_invitation_preference", ["auto_accept": false])
        let alice = ParleyClient(baseURL: server.baseURL)
        let bob = ParleyClient(baseURL: server.baseURL)
        let carol = ParleyClient(baseURL: server.baseURL)
        try await alice.connect(userId: aliceId, sessionToken: aliceToken)
        try await bob.connect(userId: bobId, sessionToken: bobToken)
        try await carol.connect(userId: carolId, sessionToken: carolToken)

        var create = GroupChannelCreateParams(userIds: [aliceId], name: "Team", isPublic: true)
        create.customType = "team"
        create.operatorIds = [aliceId]
        let team = try await alice.groupChannels.create(create)
        #expect(team.isPublic && team.name == "Team" && team.customType == "team")
        let url = team.channelURL
        // Bob joins the public channel; Carol is invited and decides.
        try await bob.groupChannels.join(url)
        _ = try await alice.groupChannels.invite(url, userIds: [carolId])
        #expect(try await carol.groupChannels.get(url).memberState == "invited")
        let accepted = try await carol.groupChannels.acceptInvitation(url)
        #expect(accepted.memberState == "joined")
        let members = try await alice.groupChannels.members(url, limit: 10)
        #expect(Set(members.items.map(\.userId)) == [aliceId, bobId, carolId])
        // Operators, updates, freezing.
        try await alice.groupChannels.addOperators(url, userIds: [bobId])
        #expect(Set(try await alice.groupChannels.operators(url).items.map(\.userId)) == [aliceId, bobId])
        // Another operator's role goes by the admin or by that operator.
        await #expect(throws: ParleyKitError.self) { try await alice.groupChannels.removeOperators(url, userIds: [bobId]) }
        try await bob.groupChannels.removeOperators(url, userIds: [bobId])
        #expect(try await alice.groupChannels.operators(url).items.map(\.userId) == [aliceId])
        let renamed = try await alice.groupChannels.update(url, .init(name: "Team 2", data: "d"))
        #expect(renamed.name == "Team 2" && renamed.data == "d")
        #expect(try await alice.groupChannels.setFrozen(url, true).freeze)
        await #expect(throws: ParleyKitError.self) { try await bob.messages.sendUserMessage(url, .init(message: "frozen")) }
        #expect(try await alice.groupChannels.setFrozen(url, false).freeze == false)
        // Hiding, history reset, leaving.
        _ = try await alice.messages.sendUserMessage(url, .init(message: "hello"))
        try await bob.groupChannels.hide(url)
        var hidden = MyChannelQuery()
        hidden.hiddenMode = "hidden_only"
        #expect(try await bob.groupChannels.myChannels(hidden).items.map(\.channelURL) == [url])
        try await bob.groupChannels.unhide(url)
        try await bob.groupChannels.resetHistory(url)
        #expect(try await bob.messages.list(url, .init(point: .timestamp(Int64.max), previousLimit: 10)).isEmpty)
        try await carol.groupChannels.leave(url)
        #expect(try await alice.groupChannels.get(url).memberCount == 2)
        // Queries: by custom type and name, and a declined invitation.
        var query = MyChannelQuery()
        query.customTypes = ["team"]
        query.nameContains = "team"
        #expect(try await alice.groupChannels.myChannels(query).items.map(\.channelURL) == [url])
        var otherParams = GroupChannelCreateParams(userIds: [aliceId, carolId])
        otherParams.operatorIds = [aliceId]
        let other = try await alice.groupChannels.create(otherParams)
        try await carol.groupChannels.declineInvitation(other.channelURL)
        #expect(try await alice.groupChannels.get(other.channelURL).memberCount == 1)
        try await alice.groupChannels.delete(other.channelURL)
        await #expect(throws: ParleyKitError.self) { try await alice.groupChannels.get(other.channelURL) }
        for client in [alice, bob, carol] { await client.disconnect() }
        server.stop()
    }

    @Test func openChannelsModerationAndPush() async throws {
        let server = try await ParleyServer()
        let (aliceId, aliceToken) = try await server.user("alice")
        let (bobId, bobToken) = try await server.user("bob")
        let lobby = "lobby-\(UUID().uuidString.prefix(6))"
        try await server.admin("POST", "/v3/open_channels", ["channel_url": lobby, "name": "Lobby \(lobby)", "custom_type": "public-room"])
        let alice = ParleyClient(baseURL: server.baseURL)
        let bob = ParleyClient(baseURL: server.baseURL)
        try await alice.connect(userId: aliceId, sessionToken: aliceToken)
        try await bob.connect(userId: bobId, sessionToken: bobToken)
        let heard = Recorder()
        bob.addChannelDelegate(heard, identifier: "test")

        // Search by name, URL and custom type; enter, talk, list participants, exit.
        #expect(try await alice.openChannels.list(.init(nameContains: "Lobby \(lobby)")).items.map(\.channelURL) == [lobby])
        #expect(try await alice.openChannels.list(.init(urlContains: lobby)).items.map(\.channelURL) == [lobby])
        #expect(try await alice.openChannels.list(.init(customTypes: ["public-room"])).items.map(\.channelURL).contains(lobby))
        try await alice.openChannels.enter(lobby)
        try await bob.openChannels.enter(lobby)
        #expect(Set(try await bob.openChannels.participants(lobby).items.map(\.userId)) == [aliceId, bobId])
        #expect(try await bob.openChannels.get(lobby).participantCount == 2)
        let said = try await alice.messages.sendUserMessage(lobby, .init(message: "hi all"), channelType: .open)
        #expect(await eventually { heard.received.map(\.messageId) == [said.messageId] })
        #expect(heard.received.first?.channelType == "open")
        try await bob.openChannels.exit(lobby)
        #expect(try await alice.openChannels.participants(lobby).items.map(\.userId) == [aliceId])

        // Blocks and reports.
        try await alice.moderation.block(bobId)
        #expect(try await alice.moderation.blockedUsers().items.map(\.userId) == [bobId])
        try await alice.moderation.unblock(bobId)
        #expect(try await alice.moderation.blockedUsers().items.isEmpty)
        try await alice.moderation.reportUser(bobId, category: .spam, description: "ads")
        try await bob.moderation.reportMessage(lobby, messageId: said.messageId, channelType: .open, category: .harassing)
        let reports = try await server.admin("GET", "/v3/report")
        #expect((reports["report_logs"] as? [[String: Any]])?.count == 2)

        // Bans and mutes by an operator of a group channel.
        var private1to1 = GroupChannelCreateParams(userIds: [aliceId, bobId])
        private1to1.operatorIds = [aliceId]
        let channel = try await alice.groupChannels.create(private1to1)
        try await alice.moderation.mute(channel.channelURL, userId: bobId, seconds: 60, description: "calm down")
        #expect(try await alice.moderation.mutedUsers(channel.channelURL).items.map(\.user.userId) == [bobId])
        try await alice.moderation.ban(channel.channelURL, userId: bobId)
        #expect(try await alice.moderation.bannedUsers(channel.channelURL).items.map(\.user.userId) == [bobId])

        // Push tokens of this device.
        let apns = String(repeating: "ab", count: 32)
        try await alice.push.register(apns, type: .apns)
        let tokens = try await server.admin("GET", "/v3/users/\(aliceId)/push/apns")
        #expect(tokens["tokens"] as? [String] == [apns])
        try await alice.push.unregister(apns, type: .apns)
        #expect(try await server.admin("GET", "/v3/users/\(aliceId)/push/apns")["tokens"] as? [String] == [])
        await alice.disconnect()
        await bob.disconnect()
        server.stop()
    }
}

/// More of the seeds' message and channel calls: open channels' edits, deletes and files,
/// delivery receipts, archiving, access codes.
@Suite struct MoreOperationTests {
    @Test func openChannelMessagesReceiptsArchivesAndAccessCodes() async throws {
        let server = try await ParleyServer()
        let (alice, aliceId) = try await server.connected("alice")
        let (bob, bobId) = try await server.connected("bob")
        let lobby = "lobby-\(UUID().uuidString.prefix(6))"
        try await server.admin("POST", "/v3/open_channels", ["channel_url": lobby, "operator_ids": [aliceId]])
        try await alice.openChannels.enter(lobby)
        let said = try await alice.messages.sendUserMessage(lobby, .init(message: "hi"), channelType: .open)
        let edited = try await alice.messages.update(lobby, messageId: said.messageId, .init(message: "hi all"), channelType: .open)
        #expect(edited.message == "hi all")
        let file = try await alice.messages.sendFileMessage(
            lobby, FileMessageParams(file: Data("notes".utf8), fileName: "n.txt"), channelType: .open)
        #expect(file.file?.name == "n.txt" && file.channelType == "open")
        try await alice.messages.delete(lobby, messageId: said.messageId, channelType: .open)
        let left = try await alice.messages.list(lobby, .init(point: .timestamp(.max), previousLimit: 10), channelType: .open)
        #expect(left.map(\.messageId) == [file.messageId])

        // Delivery receipts and reactions taken back.
        let url = try await alice.groupChannels.create(.init(userIds: [aliceId, bobId])).channelURL
        let message = try await alice.messages.sendUserMessage(url, .init(message: "delivered?"))
        let seen = Recorder()
        alice.addChannelDelegate(seen, identifier: "test")
        try await bob.receipts.markAsDelivered(url)
        try await bob.messages.addReaction(url, messageId: message.messageId, key: "eyes")
        try await bob.messages.removeReaction(url, messageId: message.messageId, key: "eyes")
        #expect(await eventually { seen.reactions.map(\.operation) == ["add", "delete"] })
        #expect(try await alice.messages.get(url, messageId: message.messageId).reactions?.isEmpty != false)

        // Archived (hidden, no auto-unhide): a new message does not bring it back.
        try await bob.groupChannels.hide(url, allowAutoUnhide: false)
        _ = try await alice.messages.sendUserMessage(url, .init(message: "still archived"))
        var unhidden = MyChannelQuery()
        unhidden.hiddenMode = "unhidden_only"
        #expect(try await bob.groupChannels.myChannels(unhidden).items.isEmpty)

        // A public channel with an access code.
        var gated = GroupChannelCreateParams(userIds: [aliceId], isPublic: true)
        gated.accessCode = "sesame"
        let club = try await alice.groupChannels.create(gated).channelURL
        await #expect(throws: ParleyKitError.self) { try await bob.groupChannels.join(club) }
        try await bob.groupChannels.join(club, accessCode: "sesame")
        #expect(try await bob.groupChannels.get(club).memberState == "joined")
        await alice.disconnect()
        await bob.disconnect()
        server.stop()
    }
}
