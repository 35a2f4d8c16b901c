import Foundation
import Hummingbird
import ParleyCore

extension ParleyRequestContext {
    /// A path capture, percent-decoded (user ids may hold `@`, `:` and `+`).
    func pathParameter(_ name: String) throws -> String {
        guard let raw = parameters.get(name) else { throw ParleyError.missing(name) }
        return raw.removingPercentEncoding ?? raw
    }
}
