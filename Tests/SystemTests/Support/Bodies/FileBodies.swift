/// The `file` of a FILE message (API.md §5.2).
struct FileBody: Decodable {
    let url: String
    let name: String
    let type: String
    let size: Int
}

/// One thumbnail of a FILE message (API.md §5.2): the box asked for and the size made.
struct ThumbnailBody: Decodable {
    let url: String
    let plainURL: String
    let width: Int
    let height: Int
    let realWidth: Int
    let realHeight: Int

    enum CodingKeys: String, CodingKey {
        case url
        case plainURL = "plain_url"
        case width, height
        case realWidth = "real_width"
        case realHeight = "real_height"
    }
}

/// `POST /v3/users/{user_id}/file_auth_key` (API.md §5.3).
struct FileAuthKeyBody: Decodable {
    let auth: String
    let expiresAt: Int

    enum CodingKeys: String, CodingKey {
        case auth
        case expiresAt = "expires_at"
    }
}
