import Foundation
import HTTPTypes
import Hummingbird
import ParleyCore
import ParleyFiles
import ParleyHTTPConventions
import ParleyUsers

/// File auth keys and downloads (API.md §5.3). Downloads authenticate themselves: `?auth=` (a
/// link in a page or an <img> cannot send headers) or the `Api-Token` header.
struct FileController {
    let files: FileService
    let apiTokens: ApiTokenCheck

    /// The authenticated routes under `/v3`.
    var routes: RouteCollection<CallerContext> {
        let routes = RouteCollection(context: CallerContext.self)
        routes.post("users/{user_id}/file_auth_key", use: issueKey)
        return routes
    }

    /// The downloads under `/v3`, outside the authentication middleware: they take `?auth=`.
    var downloadRoutes: RouteCollection<ParleyRequestContext> {
        let routes = RouteCollection(context: ParleyRequestContext.self)
        routes.get("files/{file_id}", use: download)
        routes.get("files/{file_id}/thumbnails/{n}", use: download)
        return routes
    }

    @Sendable func issueKey(_ request: Request, _ context: CallerContext) async throws -> Response {
        let key = try await files.issueAuthKey(context.caller, userID: try context.pathParameter("user_id"))
        return try JSONResponse.make(FileAuthKeyDTO(auth: key.auth, expiresAt: key.expiresAt))
    }

    @Sendable func download(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        var thumbnail: Int?
        if let n = context.parameters.get("n") {
            guard let index = Int(n), (1...Validation.maxThumbnails).contains(index) else { throw ParleyError.notFound("File not found.") }
            thumbnail = index
        }
        let file = try await files.download(
            try context.pathParameter("file_id"), thumbnail: thumbnail, credential: try await credential(request, context))
        return try await FileResponse(file: file, request: request).make()
    }

    private func credential(_ request: Request, _ context: ParleyRequestContext) async throws -> FileCredential {
        if let apiToken = request.headers[AuthenticationMiddleware.apiTokenHeader] {
            _ = try await apiTokens.authenticate(apiToken, request, context)
            return .admin
        }
        if let auth = QueryParameters(request).string("auth") { return .authKey(auth) }
        return .none
    }
}

/// `{ auth, expires_at }`
struct FileAuthKeyDTO: Encodable {
    let auth: String
    let expiresAt: Int64

    enum CodingKeys: String, CodingKey {
        case auth
        case expiresAt = "expires_at"
    }
}
