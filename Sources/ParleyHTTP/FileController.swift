import Foundation
import HTTPTypes
import Hummingbird
import ParleyCore
import ParleyFiles
import ParleyUsers

/// File auth keys and downloads (API.md §5.3). Downloads authenticate themselves: `?auth=` (a
/// link in a page or an <img> cannot send headers) or the `Api-Token` header.
struct FileController {
    let files: FileService
    let authenticator: Authenticator

    /// Behind the authentication middleware.
    var authenticatedEndpoints: [Endpoint] {
        [Endpoint(.post, "/v3/users/{user_id}/file_auth_key", issueKey)]
    }

    /// Outside it: they take `?auth=`.
    var downloadEndpoints: [Endpoint] {
        [
            Endpoint(.get, "/v3/files/{file_id}", download),
            Endpoint(.get, "/v3/files/{file_id}/thumbnails/{n}", download),
        ]
    }

    @Sendable func issueKey(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        let key = try await files.issueAuthKey(try context.requireActor(), userID: try context.pathParameter("user_id"))
        return JSONResponse.make(FileAuthKeyDTO(auth: key.auth, expiresAt: key.expiresAt))
    }

    @Sendable func download(_ request: Request, _ context: ParleyRequestContext) async throws -> Response {
        var thumbnail: Int?
        if let n = context.parameters.get("n") {
            guard let index = Int(n), (1...Validation.maxThumbnails).contains(index) else { throw ParleyError.notFound("File not found.") }
            thumbnail = index
        }
        let file = try await files.download(try context.pathParameter("file_id"), thumbnail: thumbnail, credential: try credential(request))
        return try await FileResponse(file: file, request: request).make()
    }

    private func credential(_ request: Request) throws -> FileCredential {
        if let apiToken = request.headers[AuthenticationMiddleware.apiTokenHeader] {
            _ = try authenticator.authenticate(apiToken: apiToken)
            return .admin
        }
        if let auth = QueryParameters(request).string("auth") { return .authKey(auth) }
        return .none
    }
}

/// `{ auth, expires_at }`
struct FileAuthKeyDTO: JSONWritable {
    let auth: String
    let expiresAt: Int64

    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("auth", auth)
            json.field("expires_at", expiresAt)
        }
    }
}
