import ByteCoding
import ParleyCore
import ParleyModeration

/// A ban or mute: `{ user, start_at, end_at, description }` (API.md §7.1), also the `data` of
/// `user_banned` and `user_muted`.
public struct RestrictionDTO: JSONWritable {
    let restriction: Restriction

    public init(restriction: Restriction) {
        self.restriction = restriction
    }

    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("user", BasicUserDTO(user: restriction.user))
            json.field("start_at", restriction.startAt)
            json.field("end_at", restriction.endAt)
            json.field("description", restriction.description)
        }
    }
}
