import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The REST half of ParleyKit: JSON requests as the signed-in user (`Session-Token`), the
/// server's errors as `ParleyKitError`, and one renewal of a refused token through the app's
/// provider before a request is given up.
final class RESTClient: Sendable {
    let baseURL: URL
    let urlSession: URLSession
    let credentials: SessionCredentials

    init(baseURL: URL, urlSession: URLSession, credentials: SessionCredentials) {
        self.baseURL = baseURL
        self.urlSession = urlSession
        self.credentials = credentials
    }

    /// `method path?query` with an optional JSON body, decoded as `T`.
    func call<T: Decodable>(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: (any Encodable & Sendable)? = nil, as type: T.Type = T.self
    ) async throws -> T {
        let bodyData = try body.map { try JSONCoding.encoder.encode($0) }
        let data = try await perform(method, path, query: query, contentType: bodyData == nil ? nil : "application/json") { request in
            request.httpBody = bodyData
            return try await self.urlSession.data(for: request)
        }
        do {
            return try JSONCoding.decoder.decode(T.self, from: data)
        } catch {
            throw ParleyKitError(code: 0, status: 200, message: "Unexpected answer from the server: \(error)")
        }
    }

    /// A call whose answer does not matter beyond success.
    func call(_ method: String, _ path: String, query: [URLQueryItem] = [], body: (any Encodable & Sendable)? = nil) async throws {
        _ = try await call(method, path, query: query, body: body, as: Ignored.self)
    }

    /// Sends the request built by `send` (which sets the body), with the session token; once more
    /// with a renewed token when the server refuses it.
    func perform(
        _ method: String, _ path: String, query: [URLQueryItem] = [], contentType: String?,
        send: @Sendable (inout URLRequest) async throws -> (Data, URLResponse)
    ) async throws -> Data {
        var token = await credentials.token
        for attempt in 0..<2 {
            var request = URLRequest(url: url(path, query))
            request.httpMethod = method
            request.setValue(token, forHTTPHeaderField: "Session-Token")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
            let (data, response): (Data, URLResponse)
            do {
                (data, response) = try await send(&request)
            } catch let error as ParleyKitError {
                throw error
            } catch {
                throw ParleyKitError.transport(error)
            }
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            if (200..<300).contains(status) { return data }
            let failure = Self.error(status: status, data)
            guard failure.isInvalidSessionToken, attempt == 0 else { throw failure }
            token = try await credentials.renew(refused: token)
        }
        throw ParleyKitError(code: 0, status: 0, message: "unreachable")
    }

    /// POSTs a file message's upload form (with `extra` fields beside the message's own),
    /// reporting progress; cancelling the calling task cancels the upload.
    func upload<T: Decodable>(
        _ path: String, _ params: FileMessageParams, extra: [(String, String)] = [], progress: UploadProgress?, as type: T.Type = T.self
    ) async throws -> T {
        let form = MultipartForm(fields: params.fields + extra, fileName: params.fileName, mimeType: params.mimeType, file: params.file)
        let data = try await perform("POST", path, contentType: form.contentType) { request in
            try await Uploader.upload(request, body: form.body, session: self.urlSession, progress: progress)
        }
        return try JSONCoding.decoder.decode(T.self, from: data)
    }

    func url(_ path: String, _ query: [URLQueryItem] = []) -> URL {
        // `path` is already escaped (`segment`): appendingPathComponent would escape its `%` again.
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var components = URLComponents(string: base + path)!
        if !query.isEmpty { components.queryItems = query }
        // A `+` in a query value is a space to many servers: spell it out.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url!
    }

    /// The error body of API.md §1.5 (`{"error": true, "code", "message"}`), or the status alone.
    static func error(status: Int, _ data: Data) -> ParleyKitError {
        struct Body: Decodable {
            let code: Int?
            let message: String?
        }
        let body = try? JSONDecoder().decode(Body.self, from: data)
        return ParleyKitError(code: body?.code ?? 0, status: status, message: body?.message ?? "HTTP \(status)")
    }

    /// Path segments are escaped: channel URLs and user ids may hold any character.
    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}

/// An answer whose content is not needed.
struct Ignored: Decodable {}
