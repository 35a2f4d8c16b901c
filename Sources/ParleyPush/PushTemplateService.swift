import ParleyCore
import ParleyStore

/// The application's push templates (API.md §12.2), the admin's: how a push's text is written
/// for each type of message, in the two versions users choose between.
public struct PushTemplateService: Sendable {
    let store: Store

    public init(store: Store) {
        self.store = store
    }

    public func templates(_ caller: Caller) async throws -> [PushTemplate] {
        try caller.requireAdmin()
        return try await store.read { try $0.pushPreferences.templates() }
    }

    public func template(_ caller: Caller, _ name: PushTemplateName) async throws -> PushTemplate {
        try caller.requireAdmin()
        return try await store.read { repositories in
            guard let template = try repositories.pushPreferences.templates().first(where: { $0.name == name }) else {
                throw ParleyError.notFound("No push template \"\(name.rawValue)\".")
            }
            return template
        }
    }

    /// Changes the texts given (nil ones stay); returns the template as it now is.
    public func update(_ caller: Caller, _ name: PushTemplateName, userMessage: String?, fileMessage: String?, adminMessage: String?)
        async throws -> PushTemplate
    {
        try caller.requireAdmin()
        let texts = try [("template.MESG", userMessage), ("template.FILE", fileMessage), ("template.ADMM", adminMessage)].map {
            field, text in
            try text.map { try Validation.text($0, field: field, max: PushTemplate.maxLength) }
        }
        return try await store.transaction { repositories in
            guard var template = try repositories.pushPreferences.templates().first(where: { $0.name == name }) else {
                throw ParleyError.notFound("No push template \"\(name.rawValue)\".")
            }
            template.userMessage = texts[0] ?? template.userMessage
            template.fileMessage = texts[1] ?? template.fileMessage
            template.adminMessage = texts[2] ?? template.adminMessage
            try repositories.pushPreferences.saveTemplate(template)
            return template
        }
    }
}
