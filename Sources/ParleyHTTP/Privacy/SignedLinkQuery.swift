import Hummingbird
import ParleyHTTPConventions

/// The query of a signed download link (an access archive's, an export's): `expires_at` and
/// `signature`, checked by the service that issued the link.
struct SignedLinkQuery {
    let expiresAt: Int64
    let signature: String

    init(_ request: Request) throws {
        let query = QueryParameters(request)
        expiresAt = try query.int64("expires_at") ?? 0
        signature = query.string("signature") ?? ""
    }
}
