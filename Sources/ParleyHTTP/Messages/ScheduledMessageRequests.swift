import ParleyCore
import ParleyHTTPConventions

/// `POST /v3/group_channels/{url}/scheduled_messages`: a message's body (API.md §4.2; `MESG`, or
/// `FILE` with `url`) and `scheduled_at`.
struct ScheduledMessageBody: Decodable {
    let content: NewMessageBody
    let scheduledAt: Int64?

    init(from decoder: any Decoder) throws {
        content = try NewMessageBody(from: decoder)
        scheduledAt = try ScheduledAtBody(from: decoder).scheduledAt
    }

    func validated(caller: Caller, limits: Limits) throws -> (content: NewMessage, scheduledAt: Int64) {
        guard let scheduledAt else { throw ParleyError.missing("scheduled_at") }
        return (try content.validated(caller: caller, limits: limits), scheduledAt)
    }
}

private struct ScheduledAtBody: Decodable {
    @Checked var scheduledAt: Int64?

    enum CodingKeys: String, CodingKey {
        case scheduledAt = "scheduled_at"
    }
}

/// `PUT …/scheduled_messages/{id}`: a message update's fields (API.md §4.4), and what else a
/// scheduled message has; absent fields stay.
struct ScheduledMessageUpdateBody: Decodable {
    let edit: MessageUpdateBody
    let rest: Rest

    init(from decoder: any Decoder) throws {
        edit = try MessageUpdateBody(from: decoder)
        rest = try Rest(from: decoder)
    }

    struct Rest: Decodable {
        var sortedMetaarray: [MetaArrayBody]?
        var isSilent: Bool?
        @Checked var sendPush: Bool?
        @Checked var targetLangs: [String]?
        @Checked var scheduledAt: Int64?

        enum CodingKeys: String, CodingKey {
            case sortedMetaarray = "sorted_metaarray"
            case isSilent = "is_silent"
            case sendPush = "send_push"
            case targetLangs = "target_langs"
            case scheduledAt = "scheduled_at"
        }
    }

    func validated(limits: Limits) throws -> ScheduledMessageUpdate {
        let edited = try edit.validated(limits: limits)
        var update = ScheduledMessageUpdate()
        (update.message, update.customType, update.data) = (edited.message, edited.customType, edited.data)
        (update.mentionType, update.mentionedUserIDs) = (edited.mentionType, edited.mentionedUserIDs)
        update.sortedMetaarray = try rest.sortedMetaarray.map { try MessageFieldRules.metaarray($0) }
        update.isSilent = rest.isSilent
        update.sendsPush = rest.sendPush
        update.targetLanguages = try MessageFieldRules.targetLanguages(rest.targetLangs)
        update.scheduledAt = rest.scheduledAt
        return update
    }
}
