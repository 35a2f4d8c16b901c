import Hummingbird
import ParleyCore

extension RequestContext {
    /// A path capture, percent-decoded (user ids may hold `@`, `:` and `+`).
    func pathParameter(_ name: String) throws -> String {
        guard let raw = parameters.get(name) else { throw ParleyError.missing(name) }
        return PercentDecoding.decode(raw) ?? raw
    }
}

extension RequestContext {
    /// The `{message_id}` capture as a number (400101 otherwise).
    func messageID() throws -> Int64 {
        guard let id = Int64(try pathParameter("message_id")) else { throw ParleyError.wrongType("message_id", expected: .number) }
        return id
    }
}
