/// `{ "error": true, "code": 400201, "message": "…" }`: every error (API.md §1.5).
struct ErrorBody: Decodable {
    let error: Bool
    let code: Int
    let message: String
}

/// `GET /health` and `GET /ready` when all is well.
struct HealthBody: Decodable {
    let status: String
}
