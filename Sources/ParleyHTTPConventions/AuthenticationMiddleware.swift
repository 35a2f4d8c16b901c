import HTTPTypes
import HTTPWire
import Hummingbird
import ParleyCore
import ParleyRepresentations
import ParleyUsers

/// Authenticates every `/v3` request (API.md §1.7): `Api-Token` makes the caller the admin;
/// `Session-Token` or `Authorization: Bearer` makes them the token's user. The caller's file
/// links (`FileLinks.current`) are set here too, since they follow from who the caller is.
public struct AuthenticationMiddleware: RouterMiddleware {
    public typealias Context = ParleyRequestContext
    public static let apiTokenHeader = HTTPField.Name("Api-Token")!
    public static let sessionTokenHeader = HTTPField.Name("Session-Token")!

    public let apiTokens: ApiTokenCheck
    public let fileLinks: FileLinkIssuer
    var authenticator: Authenticator { apiTokens.authenticator }

    public init(apiTokens: ApiTokenCheck, fileLinks: FileLinkIssuer) {
        self.apiTokens = apiTokens
        self.fileLinks = fileLinks
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let authentication = try await authenticate(request, context)
        context.caller = authentication.caller
        context.trace.identify(authentication.caller)
        return try await Caller.$current.withValue(authentication.caller) {
            try await FileLinks.$current.withValue(fileLinks.links(for: authentication)) { try await next(request, context) }
        }
    }

    private func authenticate(_ request: Request, _ context: Context) async throws -> Authentication {
        let headers = request.headers
        if let apiToken = headers.value(of: Self.apiTokenHeader) {
            return try await apiTokens.authenticate(apiToken, request, context)
        }
        if let sessionToken = headers.value(of: Self.sessionTokenHeader) {
            return try await authenticator.authenticate(sessionToken: sessionToken)
        }
        if let authorization = headers.value(of: .authorization) {
            guard let token = Self.bearerToken(authorization) else { throw ParleyError.invalidSessionToken }
            return try await authenticator.authenticate(sessionToken: token)
        }
        throw ParleyError.invalidApiToken
    }

    /// The session token of an `Authorization: Bearer <token>` value; nil for another scheme.
    public static func bearerToken(_ authorization: String) -> String? {
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }
}
