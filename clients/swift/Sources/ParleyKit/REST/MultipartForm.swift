import Foundation

/// A `multipart/form-data` body: text fields, then the file (API.md §5.1).
struct MultipartForm: Sendable {
    let boundary = "parleykit-\(UUID().uuidString)"
    let body: Data

    init(fields: [(String, String)], fileName: String, mimeType: String?, file: Data) {
        var body = Data()
        let boundary = boundary
        func add(_ text: String) { body.append(contentsOf: Array(text.utf8)) }
        for (name, value) in fields {
            add("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        let quotedName = fileName.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "")
            .replacingOccurrences(of: "\n", with: "")
        add("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(quotedName)\"\r\n")
        add("Content-Type: \(mimeType ?? "application/octet-stream")\r\n\r\n")
        body.append(file)
        add("\r\n--\(boundary)--\r\n")
        self.body = body
    }

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }
}
