import ByteCoding
import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// `GET /v3/search/messages` (API.md §13.5).
struct SearchController {
    let search: MessageSearchService
    let limits: Limits

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.get("search/messages", use: find)
        return routes
    }

    @Sendable func find(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        guard let text = query.string("query") else { throw ParleyError.missing("query") }
        guard text.contains(where: { $0.isLetter || $0.isNumber }) else {
            throw ParleyError.invalidValue("query", "must hold a word")
        }
        var search = MessageSearch(query: try Validation.text(text, field: "query", max: limits.searchQueryLength))
        guard search.termCount <= limits.searchTerms else {
            throw ParleyError.invalidValue(
                "query", "at most \(limits.searchTerms) words (each Chinese, Japanese or Korean character counts as one)")
        }
        search.channelURL = query.string("channel_url")
        search.customType = query.string("custom_type")
        search.senderID = try query.string("sender_id").map { try Validation.userID($0, field: "sender_id") }
        search.from = try query.int64("message_ts_from")
        search.to = try query.int64("message_ts_to")
        switch query.string("sort_field") ?? "ts" {
        case "ts": search.byScore = false
        case "score": search.byScore = true
        default: throw ParleyError.invalidValue("sort_field", "must be score or ts")
        }
        search.exactMatch = try query.bool("exact_match", default: false)
        search.advanced = try query.bool("advanced_query", default: false)
        let (limit, token) = try query.page()
        let page = try await self.search.search(context.caller, search, limit: limit, token: token)
        return JSONResponse.make(SearchResultsDTO(page: page))
    }
}

/// `{ "results": [...], "has_next": bool, "next": "…" }`, within the answer's byte budget.
struct SearchResultsDTO: JSONWritable {
    let page: Page<Message>

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("results")
            let next = ResponseBudget.writePage(page, to: &json) { message, json in json.value(MessageDTO(message: message)) }
            json.field("has_next", !next.isEmpty)
            json.field("next", next)
        }
    }
}
