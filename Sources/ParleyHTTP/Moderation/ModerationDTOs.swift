import ByteCoding
import ParleyCore
import ParleyHTTPConventions
import ParleyModeration
import ParleyRepresentations

/// `GET …/mute/{user_id}`: `{ is_muted, remaining_duration, start_at, end_at, description }`.
struct MuteStatusDTO: JSONWritable {
    let mute: Restriction?
    let now: Int64

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("is_muted", mute != nil)
            json.field("remaining_duration", mute?.remaining(at: now) ?? 0)
            json.field("start_at", mute?.startAt ?? 0)
            json.field("end_at", mute?.endAt ?? 0)
            json.field("description", mute?.description ?? "")
        }
    }
}

/// `{ "banned_list": […], "total_ban_count", "next" }` and the muted one.
struct RestrictionListDTO: JSONWritable {
    let key: String
    let totalKey: String
    let page: Page<Restriction>
    let total: Int

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key(key)
            json.array { json in page.items.forEach { json.value(RestrictionDTO(restriction: $0)) } }
            json.key(totalKey)
            json.int(Int64(total))
            json.field("next", page.next)
        }
    }
}

/// One entry of a user's `banned_channels` / `muted_channels`.
struct RestrictedChannelDTO: JSONWritable {
    let item: RestrictedChannel
    let channelDTO: @Sendable (ChannelResource) -> ChannelResourceDTO

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("channel", channelDTO(item.channel))
            json.field("start_at", item.startAt)
            json.field("end_at", item.endAt)
            json.field("description", item.description)
        }
    }
}

/// An audit log entry (API.md §7.5); the admin's actions show `"actor": "admin"`.
struct AuditEntryDTO: JSONWritable {
    let entry: AuditEntry

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("audit_id", entry.auditID)
            json.field("action", entry.action.rawValue)
            json.field("actor", entry.actorID ?? "admin")
            json.key("target_user_id")
            if let target = entry.targetUserID { json.string(target) } else { json.null() }
            json.key("channel_url")
            if let channelURL = entry.channelURL { json.string(channelURL) } else { json.null() }
            json.key("channel_type")
            if let kind = entry.channelKind { json.string(kind.rawValue) } else { json.null() }
            json.key("message_id")
            if let messageID = entry.messageID { json.int(messageID) } else { json.null() }
            json.field("details", entry.details)
            json.field("created_at", entry.createdAt)
        }
    }
}

/// A report (API.md §7.4).
struct ReportDTO: JSONWritable {
    let report: Report

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("report_id", report.reportID)
            json.field("report_type", report.type.rawValue)
            json.field("report_category", report.category.rawValue)
            json.field("reporting_user", BasicUserDTO(user: report.reportingUser))
            json.key("offending_user")
            if let offender = report.offendingUser { json.value(BasicUserDTO(user: offender)) } else { json.null() }
            json.key("reported_message")
            if let message = report.reportedMessage { json.value(MessageDTO(message: message)) } else { json.null() }
            json.key("channel")
            if let channel = report.channel {
                json.object { json in
                    json.field("channel_url", channel.channelURL)
                    json.field("channel_type", channel.kind.rawValue)
                    json.field("name", channel.name)
                    json.field("custom_type", channel.customType)
                }
            } else {
                json.null()
            }
            json.field("report_description", report.description)
            json.field("status", report.status.rawValue)
            json.key("resolution")
            if let resolution = report.resolution { json.string(resolution) } else { json.null() }
            json.key("resolved_by")
            if let resolvedBy = report.resolvedBy { json.string(resolvedBy) } else { json.null() }
            json.field("created_at", report.createdAt)
            json.field("updated_at", report.updatedAt)
        }
    }
}
