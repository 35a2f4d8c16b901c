import ByteCoding
import Hummingbird
import ParleyCore
import ParleyHTTPConventions
import ParleyPush

/// What the server pushes through (API.md §12.5): the configured providers, without secrets
/// (`GET /v3/applications/push/{push_type}`, the admin), and the Web Push key browsers subscribe
/// with (`GET /v3/push/web/vapid_public_key`, any caller).
struct PushProviderController {
    let providers: PushProviders

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.get("applications/push/{push_type}", use: list)
        routes.get("push/web/vapid_public_key", use: vapidKey)
        return routes
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        let configurations = try providers.configurations(context.caller, type: try context.pathParameter("push_type"))
        return JSONResponse.make(PushConfigurationsDTO(configurations: configurations))
    }

    @Sendable func vapidKey(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(VAPIDKeyDTO(key: try providers.webPushKey()))
    }
}

struct PushConfigurationsDTO: JSONWritable {
    let configurations: [PushConfiguration]

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("push_configurations")
            json.array { json in
                for configuration in configurations {
                    json.object { json in
                        json.field("id", configuration.id)
                        json.field("push_type", configuration.type.rawValue)
                        for (name, value) in configuration.details.sorted(by: { $0.key < $1.key }) { json.member(name, value) }
                    }
                }
            }
        }
    }
}

struct VAPIDKeyDTO: JSONWritable {
    let key: String

    func write(to json: inout JSONWriter) {
        json.object { json in json.field("vapid_public_key", key) }
    }
}
