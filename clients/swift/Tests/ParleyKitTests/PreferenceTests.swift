import Foundation
import ParleyKit
import Testing

/// The user's settings and the remaining per-user and per-channel calls through ParleyKit: push
/// preferences and tokens, invitation preference, metadata keys removed, unread counts, meta
/// arrays after sending, lifting bans and mutes, open channels made by a user.
@Suite struct PreferenceTests {
    @Test func pushPreferencesTokensAndInvitations() async throws {
        let server = try await ParleyServer()
        let (alice, aliceId) = try await server.connected("alice")
        let url = try await alice.groupChannels.create(.init(userIds: [aliceId])).channelURL
        var quiet = PushPreference(pushTriggerOption: "mention_only")
        quiet.doNotDisturb = true
        (quiet.startHour, quiet.startMin, quiet.endHour, quiet.endMin) = (22, 30, 7, 0)
        quiet.timezone = "Asia/Seoul"
        let saved = try await alice.push.updatePreference(quiet)
        #expect(saved.pushTriggerOption == "mention_only" && saved.doNotDisturb == true && saved.startHour == 22)
        #expect(try await alice.push.preference().timezone == "Asia/Seoul")
        try await alice.push.setTemplate("alternative")
        #expect(try await alice.push.preference().pushTemplate == "alternative")
        try await alice.push.resetPreference()
        #expect(try await alice.push.preference().doNotDisturb == false)

        let off = try await alice.push.updateChannelPreference(url, .init(pushTriggerOption: "off"))
        #expect(off.pushTriggerOption == "off")
        #expect(try await alice.push.channelPreference(url).pushTriggerOption == "off")

        let fcm = "fcm-\(UUID().uuidString)"
        try await alice.push.register(fcm, type: .fcm)
        try await alice.push.register(String(repeating: "cd", count: 32), type: .apns)
        #expect(try await alice.push.tokens(.fcm).items == [fcm])
        try await alice.push.unregisterAll()
        #expect(try await alice.push.tokens(.fcm).items.isEmpty)
        #expect(try await alice.push.tokens(.apns).items.isEmpty)

        try await alice.users.setChannelInvitationPreference(autoAccept: false)
        #expect(try await alice.users.channelInvitationPreference() == false)
        await alice.disconnect()
        server.stop()
    }

    @Test func metadataKeysUnreadCountsAndMetaArrays() async throws {
        let server = try await ParleyServer()
        let (alice, aliceId, bob, bobId, url) = try await server.aliceAndBob()
        let other = try await alice.groupChannels.create(.init(userIds: [aliceId, bobId])).channelURL

        try await bob.users.updateMyMetadata(["city": "Busan", "team": "blue"])
        try await bob.users.deleteMyMetadata(key: "team")
        #expect(try await bob.users.myMetadata() == ["city": "Busan"])
        try await alice.users.updateChannelMetadata(url, ["topic": "snow", "mood": "calm"])
        try await alice.users.deleteChannelMetadata(url, key: "mood")
        #expect(try await bob.users.channelMetadata(url) == ["topic": "snow"])

        let message = try await alice.messages.sendUserMessage(url, .init(message: "one"))
        _ = try await alice.messages.sendUserMessage(url, .init(message: "two"))
        _ = try await alice.messages.sendUserMessage(other, .init(message: "three"))
        #expect(try await bob.receipts.unreadMessageCount(url) == 2)
        #expect(try await bob.receipts.unreadChannelCount() == 2)
        try await bob.receipts.markAllAsRead()
        #expect(try await bob.receipts.totalUnreadMessageCount() == 0)
        #expect(try await bob.receipts.unreadChannelCount() == 0)

        let made = try await alice.messages.createMetaArrayKeys(url, messageId: message.messageId, [MetaArray(key: "tags", value: ["a"])])
        #expect(made.sortedMetaarray == [MetaArray(key: "tags", value: ["a"])])
        let added = try await alice.messages.addMetaArrayValues(url, messageId: message.messageId, [MetaArray(key: "tags", value: ["b"])])
        #expect(added.sortedMetaarray == [MetaArray(key: "tags", value: ["a", "b"])])
        let fewer = try await alice.messages.removeMetaArrayValues(
            url, messageId: message.messageId, [MetaArray(key: "tags", value: ["a"])])
        #expect(fewer.sortedMetaarray == [MetaArray(key: "tags", value: ["b"])])
        let none = try await alice.messages.deleteMetaArrayKeys(url, messageId: message.messageId, ["tags"])
        #expect(none.sortedMetaarray?.isEmpty != false)
        await alice.disconnect()
        await bob.disconnect()
        server.stop()
    }

    @Test func bansAndMutesLiftedAndOpenChannelsMadeByAUser() async throws {
        let server = try await ParleyServer()
        let (alice, aliceId, bob, bobId, url) = try await server.aliceAndBob()
        try await alice.moderation.mute(url, userId: bobId)
        await #expect(throws: ParleyKitError.self) { try await bob.messages.sendUserMessage(url, .init(message: "muted")) }
        try await alice.moderation.unmute(url, userId: bobId)
        _ = try await bob.messages.sendUserMessage(url, .init(message: "heard again"))
        try await alice.moderation.ban(url, userId: bobId)
        try await alice.moderation.unban(url, userId: bobId)
        #expect(try await alice.moderation.bannedUsers(url).items.isEmpty)

        var params = OpenChannelParams(name: "Book club", customType: "club")
        params.operatorIds = [aliceId]
        let club = try await alice.openChannels.create(params)
        #expect(club.name == "Book club" && club.operators?.map(\.userId) == [aliceId])
        let renamed = try await alice.openChannels.update(club.channelURL, OpenChannelParams(name: "Reading club"))
        #expect(renamed.name == "Reading club" && renamed.customType == "club")
        await #expect(throws: ParleyKitError.self) { try await bob.openChannels.update(club.channelURL, OpenChannelParams(name: "mine")) }
        #expect(try await alice.openChannels.setFrozen(club.channelURL, true).freeze)
        try await alice.users.updateChannelMetadata(club.channelURL, ["genre": "poetry"], channelType: .open)
        #expect(try await bob.users.channelMetadata(club.channelURL, channelType: .open) == ["genre": "poetry"])
        try await alice.openChannels.delete(club.channelURL)
        await #expect(throws: ParleyKitError.self) { try await bob.openChannels.get(club.channelURL) }
        await alice.disconnect()
        await bob.disconnect()
        server.stop()
    }
}
