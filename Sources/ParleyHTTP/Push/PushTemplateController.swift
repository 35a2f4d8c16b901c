import ByteCoding
import Hummingbird
import ParleyCore
import ParleyHTTPConventions
import ParleyPush

/// The application's push templates (API.md §12.2), the admin's:
/// `/v3/applications/push/message_templates[/{template_name}]`.
struct PushTemplateController {
    let templates: PushTemplateService

    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.get("applications/push/message_templates", use: list)
        routes.get("applications/push/message_templates/{template_name}", use: get)
        routes.put("applications/push/message_templates/{template_name}", use: update)
        return routes
    }

    @Sendable func list(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(PushTemplatesDTO(templates: try await templates.templates(context.caller)))
    }

    @Sendable func get(_ request: Request, _ context: CallerContext) async throws -> Response {
        JSONResponse.make(PushTemplatesDTO(templates: [try await templates.template(context.caller, try Self.name(context))]))
    }

    @Sendable func update(_ request: Request, _ context: CallerContext) async throws -> Response {
        let body = try await request.decode(as: PushTemplateBody.self, context: context)
        let template = body.template
        let updated = try await templates.update(
            context.caller, try Self.name(context), userMessage: template.mesg, fileMessage: template.file, adminMessage: template.admm)
        return JSONResponse.make(PushTemplatesDTO(templates: [updated]))
    }

    private static func name(_ context: CallerContext) throws -> PushTemplateName {
        guard let name = PushTemplateName(rawValue: try context.pathParameter("template_name")) else {
            throw ParleyError.notFound("No such push template: there are default and alternative.")
        }
        return name
    }
}

/// `PUT …/message_templates/{name}`: `{ template: { MESG?, FILE?, ADMM? } }`.
struct PushTemplateBody: Decodable {
    let template: Texts

    struct Texts: Decodable {
        @Checked var mesg: String?
        @Checked var file: String?
        @Checked var admm: String?

        enum CodingKeys: String, CodingKey {
            case mesg = "MESG"
            case file = "FILE"
            case admm = "ADMM"
        }
    }
}

/// `{ push_message_templates: [{ template_name, template: { MESG, FILE, ADMM } }] }`.
struct PushTemplatesDTO: JSONWritable {
    let templates: [PushTemplate]

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("push_message_templates")
            json.array { json in
                for template in templates {
                    json.object { json in
                        json.field("template_name", template.name.rawValue)
                        json.key("template")
                        json.object { json in
                            json.field("MESG", template.userMessage)
                            json.field("FILE", template.fileMessage)
                            json.field("ADMM", template.adminMessage)
                        }
                    }
                }
            }
        }
    }
}
