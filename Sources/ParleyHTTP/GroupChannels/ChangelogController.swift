import ByteCoding
import Hummingbird
import ParleyChat
import ParleyCore
import ParleyHTTPConventions
import ParleyRepresentations

/// The changelogs (API.md §6.6): `{ updated, deleted, has_more, next }` since `change_ts` or
/// since the page of `token`.
struct ChangelogController {
    let changelogs: ChangelogService
    let channelDTO: @Sendable (ChannelView) -> ChannelDTO

    /// The routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.get("group_channels/{channel_url}/messages/changelogs", use: messages)
        routes.get("users/{user_id}/my_group_channels/changelogs", use: myChannels)
        return routes
    }

    @Sendable func messages(_ request: Request, _ context: CallerContext) async throws -> Response {
        let query = QueryParameters(request)
        let (start, limit) = try Self.start(query)
        let changes = try await changelogs.messages(
            context.caller, try context.pathParameter("channel_url"), since: start, viewerID: try query.userID(), limit: limit
        )
        return JSONResponse.make(ChangelogDTO(changes, numericDeleted: true, MessageDTO.init))
    }

    @Sendable func myChannels(_ request: Request, _ context: CallerContext) async throws -> Response {
        let (start, limit) = try Self.start(QueryParameters(request))
        let changes = try await changelogs.myChannels(
            context.caller, userID: try context.pathParameter("user_id"), since: start, limit: limit
        )
        return JSONResponse.make(ChangelogDTO(changes, numericDeleted: false, channelDTO))
    }

    /// `token` (a page's `next`) wins over `change_ts`; one of them is required.
    private static func start(_ query: QueryParameters) throws -> (ChangelogService.Start, Int) {
        let limit = try query.int("limit", default: 100, range: 1...200)
        if let token = query.string("token"), !token.isEmpty { return (.token(token), limit) }
        guard let changeTS = try query.int64("change_ts") else { throw ParleyError.missing("change_ts") }
        guard changeTS >= 0 else { throw ParleyError.invalidValue("change_ts", "must not be negative") }
        return (.changeTS(changeTS), limit)
    }
}

/// `{ "updated": [...], "deleted": [...], "has_more": bool, "next": token }`: deleted message
/// ids are numbers, deleted channels their URLs. The updated items stop at the answer's byte
/// budget (`ResponseBudget`); the deletions and the token then stop where they did.
struct ChangelogDTO<Updated: Sendable, Deleted: Sendable & CustomStringConvertible, Item: JSONWritable>: JSONWritable {
    let changes: ChangelogService.Changes<Updated, Deleted>
    let numericDeleted: Bool
    let show: (Updated) -> Item

    init(_ changes: ChangelogService.Changes<Updated, Deleted>, numericDeleted: Bool, _ show: @escaping (Updated) -> Item) {
        self.changes = changes
        self.numericDeleted = numericDeleted
        self.show = show
    }

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("updated")
            let written = ResponseBudget.writeArray(changes.updated, to: &json) { item, json in json.value(show(item)) }
            let (deleted, next, hasMore) =
                written < changes.updated.count
                ? {
                    let cut = changes.cut(written - 1)
                    return (cut.deleted, cut.next, true)
                }()
                : (changes.deleted, changes.next, changes.hasMore)
            json.key("deleted")
            json.array { json in
                for item in deleted {
                    if numericDeleted, let id = Int64(item.description) { json.int(id) } else { json.string(item.description) }
                }
            }
            json.field("has_more", hasMore)
            json.field("next", next)
        }
    }
}
