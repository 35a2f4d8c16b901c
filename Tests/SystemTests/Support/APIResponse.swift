import Foundation
import HTTPTypes

/// A response of the test server: status, headers and the body as text, read as a typed body.
struct APIResponse {
    let status: Int
    let headers: HTTPFields
    let text: String

    /// The body decoded as `Body`: a field that is missing or of the wrong type fails the test,
    /// with the response quoted, so a field that vanished from the API does not go unnoticed.
    func decode<Body: Decodable>(_ type: Body.Type) throws -> Body {
        do {
            return try JSONDecoder().decode(Body.self, from: Data(text.utf8))
        } catch {
            throw TestFailure("the \(status) response is no \(Body.self): \(error)\nbody: \(text)")
        }
    }

    /// The `code` of the error body of API.md §1.5; fails the test when the body is not one.
    var code: Int {
        get throws { try decode(ErrorBody.self).code }
    }

    /// The body as untyped JSON, for the tests that check the JSON itself: that a field is
    /// absent or null, or which fields there are.
    var rawJSON: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
}
