// Temporary, while the tests move to typed bodies.
extension APIResponse {
    var json: [String: Any] { rawJSON }
    subscript(key: String) -> Any? { rawJSON[key] }
}

extension [String: Any] {
    var file: [String: Any] { self["file"] as? [String: Any] ?? [:] }
    var thumbnails: [[String: Any]] { self["thumbnails"] as? [[String: Any]] ?? [] }
}
