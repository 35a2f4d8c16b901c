import ByteCoding
import NIOCore
import ParleyCore
import ParleyEvents
import ParleyHTTPConventions
import ParleyRepresentations

/// The text frames of the event stream (API.md §6.2, docs/EVENTS.md), written for one recipient:
/// a message carries the file links of the `FileLinks.current` of the socket's task.
enum EventFrames {
    static func hello(_ hello: StreamHello) -> ByteBuffer {
        var json = JSONWriter(capacity: 128)
        json.object { json in
            json.field("type", "hello")
            json.field("connection_id", hello.connectionID)
            json.field("last_event_id", hello.lastEventID)
            json.field("server_time", hello.serverTime)
            json.field("ping_interval_ms", hello.pingIntervalMillis)
        }
        return json.buffer
    }

    /// `{ "type": "resync_required" }`, and `{ "type": "error", code, message }` for a frame
    /// that could not be done.
    static func resyncRequired() -> ByteBuffer {
        var json = JSONWriter(capacity: 32)
        json.object { $0.field("type", "resync_required") }
        return json.buffer
    }

    static func error(_ error: ParleyError) -> ByteBuffer {
        var json = JSONWriter(capacity: 128)
        json.object { json in
            json.field("type", "error")
            json.field("code", error.code)
            json.field("message", error.message)
        }
        return json.buffer
    }

    static func event(_ event: Event, maxMessageLength: Int) -> ByteBuffer {
        envelope(
            eventID: event.eventID, type: event.type.rawValue, ts: event.createdAt, channelURL: event.channelURL, kind: event.channelKind
        ) { json in
            writeData(event.payload, maxMessageLength: maxMessageLength, to: &json)
        }
    }

    static func typing(_ change: TypingChange) -> ByteBuffer {
        envelope(type: change.started ? "typing_started" : "typing_ended", ts: change.ts, channelURL: change.channelURL) { json in
            json.object { $0.field("user", BasicUserDTO(user: change.user)) }
        }
    }

    static func unread(_ change: UnreadChange) -> ByteBuffer {
        envelope(type: "unread_count_changed", ts: change.ts, channelURL: change.channelURL) { json in
            json.object { json in
                json.field("channel_url", change.channelURL)
                json.field("unread_message_count", change.unreadMessageCount)
                json.field("unread_mention_count", change.unreadMentionCount)
                json.field("total_unread_message_count", change.totalUnreadMessageCount)
            }
        }
    }

    /// `{ "event_id"?, "type", "ts", "channel_url"?, "channel_type"?, "data" }` (API.md §6.2): stored
    /// events have an id, typing and unread frames none.
    private static func envelope(
        eventID: Int64? = nil, type: String, ts: Int64, channelURL: String?, kind: ChannelKind = .group,
        data: (inout JSONWriter) -> Void
    ) -> ByteBuffer {
        var json = JSONWriter(capacity: 512)
        json.object { json in
            if let eventID { json.field("event_id", eventID) }
            json.field("type", type)
            json.field("ts", ts)
            if let channelURL {
                json.field("channel_url", channelURL)
                json.field("channel_type", kind.rawValue)
            }
            json.key("data")
            data(&json)
        }
        return json.buffer
    }

    private static func writeData(_ payload: EventPayload, maxMessageLength: Int, to json: inout JSONWriter) {
        switch payload {
        case .message(let message):
            json.value(MessageDTO(message: message))
        case .messageID(let id):
            json.object { $0.field("message_id", id) }
        case .reaction(let messageID, let key, let userID, let added):
            json.object { json in
                json.field("message_id", messageID)
                json.field("key", key)
                json.field("user_id", userID)
                json.field("operation", added ? "add" : "delete")
            }
        case .receipt(let userID, let ts):
            json.object { json in
                json.field("user_id", userID)
                json.field("ts", ts)
            }
        case .channel(let channel), .changedChannel(let channel, _):
            json.value(
                ChannelDTO(
                    view: ChannelView(channel: channel, viewerID: nil, membership: nil, members: nil), maxMessageLength: maxMessageLength))
        case .openChannel(let channel):
            json.value(OpenChannelDTO(channel: channel, maxMessageLength: maxMessageLength))
        case .users(let users):
            json.object { json in
                json.key("users")
                json.array { json in users.forEach { json.value(BasicUserDTO(user: $0)) } }
            }
        case .invitation(let inviter, let invitees):
            json.object { json in
                json.key("inviter")
                if let inviter { json.value(BasicUserDTO(user: inviter)) } else { json.null() }
                json.key("invitees")
                json.array { json in invitees.forEach { json.value(BasicUserDTO(user: $0)) } }
            }
        case .metadata(let changed, let deletedKeys):
            json.object { json in
                json.field("metadata", changed)
                json.key("deleted_keys")
                json.array { json in deletedKeys.forEach { json.string($0) } }
            }
        case .metacounter(let changed, let deletedKeys):
            json.object { json in
                json.key("metacounter")
                json.object { json in
                    for key in changed.keys.sorted() { json.member(key, changed[key]!) }
                }
                json.key("deleted_keys")
                json.array { json in deletedKeys.forEach { json.string($0) } }
            }
        case .poll(let poll):
            json.value(PollDTO(poll: poll))
        case .pollID(let pollID):
            json.object { json in json.field("poll_id", pollID) }
        case .restriction(let restriction):
            json.value(RestrictionDTO(restriction: restriction))
        case .user(let user):
            json.object { $0.field("user", BasicUserDTO(user: user)) }
        case .nothing, .block, .report:
            // The last two are webhook-only events (`EventType.isWebhookOnly`): no socket gets them.
            json.object { _ in }
        }
    }
}
