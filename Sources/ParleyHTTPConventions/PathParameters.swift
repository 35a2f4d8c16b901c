import Hummingbird
import ParleyCore

extension RequestContext {
    /// A path capture, percent-decoded (user ids may hold `@`, `:` and `+`). A `{user_id}` must
    /// be a well-formed user id (API.md §1.4; 400111 otherwise), so that a malformed one is
    /// refused alike on every route, not looked up (or listed as having nothing) on some.
    public func pathParameter(_ name: String) throws -> String {
        guard let raw = parameters.get(name) else { throw ParleyError.missing(name) }
        let value = PercentDecoding.decode(raw) ?? raw
        return name == "user_id" ? try Validation.userID(value) : value
    }
}

extension RequestContext {
    /// The `{message_id}` capture as a number (400101 otherwise).
    public func messageID() throws -> Int64 {
        try numberParameter("message_id")
    }

    /// A numeric capture (400101 otherwise).
    public func numberParameter(_ name: String) throws -> Int64 {
        guard let id = Int64(try pathParameter(name)) else { throw ParleyError.wrongType(name, expected: .number) }
        return id
    }
}
