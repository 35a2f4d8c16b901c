import ByteCoding
import ParleyCore

/// The basic user form embedded in other resources (API.md §2.1).
public struct BasicUserDTO: JSONWritable {
    let user: BasicUser

    public init(user: BasicUser) {
        self.user = user
    }

    public func write(to json: inout JSONWriter) {
        json.object { json in writeFields(to: &json) }
    }

    /// `created_by` (null when gone) and `operators`, as both kinds of channel show them.
    public static func writeCreatorAndOperators(_ creator: BasicUser?, _ operators: [BasicUser], to json: inout JSONWriter) {
        json.key("created_by")
        if let creator { json.value(BasicUserDTO(user: creator)) } else { json.null() }
        json.key("operators")
        json.array { json in operators.forEach { json.value(BasicUserDTO(user: $0)) } }
    }

    /// The fields alone, for objects that add their own (a message's sender).
    public func writeFields(to json: inout JSONWriter) {
        json.field("user_id", user.userID)
        json.field("nickname", user.nickname)
        json.field("profile_url", user.profileURL)
        json.field("is_active", user.isActive)
    }
}
