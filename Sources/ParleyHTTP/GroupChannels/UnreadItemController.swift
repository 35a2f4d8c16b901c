import ByteCoding
import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// A user's counts over their group channels, and the count preference that decides what the
/// totals count (Sendbird's user operations, issue 52.1).
struct UnreadItemController {
    let receipts: ReceiptService

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.get("users/{user_id}/unread_item_count", use: unreadItems)
        routes.get("users/{user_id}/group_channel_count", use: channelCount)
        routes.get("users/{user_id}/count_preference/{channel_url}", use: countPreference)
        routes.put("users/{user_id}/count_preference/{channel_url}", use: setCountPreference)
        return routes
    }

    @Sendable func unreadItems(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let customType = try query.string("custom_type").map { try Validation.text($0, field: "custom_type", max: 128) }
        let counts = try await receipts.unreadItems(
            context.caller, userID: try context.pathParameter("user_id"), customType: customType, keys: query.list("item_keys"))
        return JSONResponse.make(CountsDTO(counts: counts))
    }

    @Sendable func channelCount(_ request: Request, _ context: CallerContext) async throws -> Response {
        // Sendbird's `state`: `joined`/`invited` as well as the list filter's `joined_only`/`invited_only`.
        let names = ["joined": "joined_only", "invited": "invited_only"]
        let given = QueryParameters(request).string("state").map { names[$0] ?? $0 }
        guard let state = MemberStateFilter(rawValue: given ?? "all") else {
            throw ParleyError.invalidValue("state", "must be all, joined or invited")
        }
        let count = try await receipts.channelCount(context.caller, userID: try context.pathParameter("user_id"), state: state)
        return JSONResponse.make(CountsDTO(counts: ["group_channel_count": count]))
    }

    @Sendable func countPreference(_ request: Request, _ context: CallerContext) async throws -> Response {
        let preference = try await receipts.countPreference(
            context.caller, userID: try context.pathParameter("user_id"), channelURL: try context.pathParameter("channel_url"))
        return JSONResponse.make(CountsDTO(texts: ["count_preference": preference.rawValue]))
    }

    @Sendable func setCountPreference(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: CountPreferenceBody.self, context: context)
        guard let preference = CountPreference(rawValue: body.countPreference) else {
            throw ParleyError.invalidValue(
                "count_preference", "must be one of \(CountPreference.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let set = try await receipts.setCountPreference(
            context.caller, userID: try context.pathParameter("user_id"), channelURL: try context.pathParameter("channel_url"), preference)
        return JSONResponse.make(CountsDTO(texts: ["count_preference": set.rawValue]))
    }
}

/// `PUT /v3/users/{user_id}/count_preference/{channel_url}`.
struct CountPreferenceBody: Decodable {
    @Checked var countPreference: String

    enum CodingKeys: String, CodingKey {
        case countPreference = "count_preference"
    }
}

/// A flat object of counts (in key order) or of texts.
struct CountsDTO: JSONWritable {
    var counts: [String: Int] = [:]
    var texts: [String: String] = [:]

    func write(to json: inout JSONWriter) {
        json.object { json in
            for (key, value) in counts.sorted(by: { $0.key < $1.key }) { json.member(key, Int64(value)) }
            for (key, value) in texts.sorted(by: { $0.key < $1.key }) { json.member(key, value) }
        }
    }
}
