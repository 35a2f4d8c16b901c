import Foundation
import ParleyCore

/// The body of a delivery in Sendbird's payload shapes (API.md §10.1): `category`, the channel
/// object, and the category's own fields, rendered from the stored event. Never tokens or file
/// auth keys: messages carry their file's plain URL.
public enum WebhookPayload {
    public static func render(
        _ delivery: ClaimedWebhookDelivery, payload: EventPayload, channel: WebhookChannel?, members: [BasicUser]?, appID: String
    ) throws -> String {
        var body: [String: Any] = [
            "category": delivery.delivery.category, "app_id": appID, "sdk": "API", "ts": delivery.eventCreatedAt,
            "webhook_id": delivery.delivery.webhookID
        ]
        if let channel {
            body["channel"] = Self.channel(channel)
        } else if let url = delivery.channelURL {
            body["channel"] = ["channel_url": url]
        }
        if let members { body["members"] = members.map(user) }
        switch payload {
        case .message(let message):
            body["sender"] = message.sender.map(user) ?? NSNull()
            body["type"] = message.type.rawValue
            body["custom_type"] = message.customType
            body["mention_type"] = message.mentionType.rawValue
            body["mentioned_users"] = message.mentionedUsers.map(user)
            body["silent"] = message.silent
            body["sender_ip_addr"] = ""
            var content: [String: Any] = [
                "message_id": message.messageID, "message": message.message, "custom_type": message.customType, "data": message.data,
                "created_at": message.createdAt, "updated_at": message.updatedAt, "translations": message.translations ?? [:]
            ]
            if let file = message.file {
                content["url"] = file.url ?? NSNull()
                content["name"] = file.name
                content["type"] = file.type
                content["size"] = file.size
            }
            body["payload"] = content
        case .messageID(let messageID):
            body["payload"] = ["message_id": messageID, "deleted_at": delivery.eventCreatedAt]
        case .reaction(let messageID, let key, let userID, let added):
            body["operation"] = added ? "ADD" : "DELETE"
            body["reaction"] = ["key": key, "user_id": userID, "updated_at": delivery.eventCreatedAt]
            body["payload"] = ["message_id": messageID]
        case .receipt(let userID, let ts):
            body["read_updates"] = [["user_id": userID, "read_ts": ts]]
        case .users(let users):
            body["users"] = users.map(user)
            if delivery.eventType == .memberJoined { body["joined_at"] = delivery.eventCreatedAt }
            if users.count == 1, delivery.channelKind == .open { body["user"] = user(users[0]) }
        case .invitation(let inviter, let invitees):
            body["inviter"] = inviter.map(user) ?? NSNull()
            body["invitees"] = invitees.map(user)
            if delivery.eventType == .invitationDeclined, let invitee = invitees.first { body["invitee"] = user(invitee) }
        case .channel, .openChannel:
            if delivery.eventType == .channelChanged { body["changes"] = [[String: Any]]() }
        case .nothing:
            if delivery.eventType == .channelFrozen || delivery.eventType == .channelUnfrozen {
                body["freeze"] = delivery.eventType == .channelFrozen
            }
        case .metadata, .restriction, .user:
            break
        }
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    static func user(_ user: BasicUser) -> [String: Any] {
        ["user_id": user.userID, "nickname": user.nickname, "profile_url": user.profileURL, "is_active": user.isActive]
    }

    static func channel(_ channel: WebhookChannel) -> [String: Any] {
        [
            "channel_url": channel.channelURL, "channel_type": channel.kind.rawValue, "name": channel.name,
            "custom_type": channel.customType, "data": channel.data, "is_distinct": channel.isDistinct, "is_public": channel.isPublic,
            "is_super": channel.isSuper, "is_ephemeral": channel.isEphemeral, "created_at": channel.createdAt
        ]
    }
}
