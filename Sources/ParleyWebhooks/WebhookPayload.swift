import ByteCoding
import Foundation
import ParleyCore

/// The body of a delivery in Sendbird's payload shapes (API.md §10.1): `category`, the channel
/// object, and the category's own fields, rendered from the stored event. Never tokens or file
/// auth keys: messages carry their file's plain URL.
///
/// Written with `JSONWriter`: `JSONSerialization` with sorted keys took more of the server's CPU
/// than the sends it announced (perf, scripts/bench/webhooks).
public enum WebhookPayload {
    /// A delivery to a bot (`bot` given) is the message category's body with the bot and the
    /// message as Sendbird's bot callbacks show them.
    public static func render(
        _ delivery: ClaimedWebhookDelivery, payload: EventPayload, channel: WebhookChannel?, members: [BasicUser]?, bot: Bot? = nil,
        appID: String
    ) -> String {
        var json = JSONWriter(capacity: 1024)
        json.object { json in
            json.field("category", delivery.delivery.category)
            json.field("app_id", appID)
            json.field("sdk", "API")
            json.field("ts", delivery.eventCreatedAt)
            json.field("webhook_id", delivery.delivery.webhookID)
            if let channel {
                json.field("channel", ChannelJSON(channel: channel))
            } else if let url = delivery.channelURL {
                json.key("channel")
                json.object { $0.field("channel_url", url) }
            }
            if let members { json.field("members", UsersJSON(users: members)) }
            fields(of: payload, delivery, into: &json)
            if let bot {
                json.key("bot")
                json.object { json in
                    json.field("bot_userid", bot.user.userID)
                    json.field("bot_nickname", bot.user.nickname)
                    json.field("bot_profile_url", bot.user.profileURL)
                    json.field("bot_type", bot.botType)
                }
                if case .message(let message) = payload { json.field("message", MessageJSON(message: message)) }
            }
        }
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The category's own fields.
    private static func fields(of payload: EventPayload, _ delivery: ClaimedWebhookDelivery, into json: inout JSONWriter) {
        switch payload {
        case .message(let message):
            json.key("sender")
            if let sender = message.sender { json.value(UserJSON(user: sender)) } else { json.null() }
            json.field("type", message.type.rawValue)
            json.field("custom_type", message.customType)
            json.field("mention_type", message.mentionType.rawValue)
            json.field("mentioned_users", UsersJSON(users: message.mentionedUsers))
            json.field("silent", message.silent)
            json.field("sender_ip_addr", "")
            json.field("payload", MessageJSON(message: message))
        case .messageID(let messageID):
            json.key("payload")
            json.object { json in
                json.field("message_id", messageID)
                json.field("deleted_at", delivery.eventCreatedAt)
            }
        case .reaction(let messageID, let key, let userID, let added):
            json.field("operation", added ? "ADD" : "DELETE")
            json.key("reaction")
            json.object { json in
                json.field("key", key)
                json.field("user_id", userID)
                json.field("updated_at", delivery.eventCreatedAt)
            }
            json.key("payload")
            json.object { $0.field("message_id", messageID) }
        case .receipt(let userID, let ts):
            json.key("read_updates")
            json.array { json in
                json.object { json in
                    json.field("user_id", userID)
                    json.field("read_ts", ts)
                }
            }
        case .users(let users):
            json.field("users", UsersJSON(users: users))
            if delivery.eventType == .memberJoined { json.field("joined_at", delivery.eventCreatedAt) }
            if users.count == 1, delivery.channelKind == .open { json.field("user", UserJSON(user: users[0])) }
        case .invitation(let inviter, let invitees):
            json.key("inviter")
            if let inviter { json.value(UserJSON(user: inviter)) } else { json.null() }
            json.field("invitees", UsersJSON(users: invitees))
            if delivery.eventType == .invitationDeclined, let invitee = invitees.first { json.field("invitee", UserJSON(user: invitee)) }
        case .changedChannel(_, let changes):
            json.key("changes")
            json.array { json in
                for change in changes {
                    json.object { json in
                        json.field("key", change.key)
                        json.field("old", ChangedValueJSON(value: change.old))
                        json.field("new", ChangedValueJSON(value: change.new))
                    }
                }
            }
        case .channel(let channel) where delivery.eventType == .channelCreated:
            json.field("created_at", channel.createdAt)
            json.key("inviter")
            if let creator = channel.createdBy { json.value(UserJSON(user: creator)) } else { json.null() }
        case .openChannel(let channel) where delivery.eventType == .channelCreated:
            json.field("created_at", channel.createdAt)
        case .channel, .openChannel:
            // A change that is not an update's (the channel's members, say): nothing changed
            // among the fields Sendbird lists.
            if delivery.eventType == .channelChanged {
                json.key("changes")
                json.array { _ in }
            }
        case .block(let blocker, let blockees):
            json.field("blocker", UserJSON(user: blocker))
            json.field("blockees", UsersJSON(users: blockees))
        case .report(let report):
            json.field("report_type", report.type.rawValue)
            json.field("report_category", report.category.rawValue)
            json.field("report_description", report.description)
            json.field("reporting_user", UserJSON(user: report.reportingUser))
            json.key("offending_user")
            if let offender = report.offendingUser { json.value(UserJSON(user: offender)) } else { json.null() }
            if let message = report.reportedMessage { json.field("reported_message", MessageJSON(message: message)) }
            json.field("created_at", report.createdAt)
        case .nothing:
            if delivery.eventType == .channelFrozen || delivery.eventType == .channelUnfrozen {
                json.field("freeze", delivery.eventType == .channelFrozen)
            }
        case .user(let user) where delivery.eventType == .rateLimitExceeded:
            json.field("user", UserJSON(user: user))
            json.field("alerted_at", delivery.eventCreatedAt)
        case .metadata, .metacounter, .restriction, .user, .poll, .pollID:
            break
        }
    }
}
