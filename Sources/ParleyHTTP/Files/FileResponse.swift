import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParleyCore
import ParleyFiles
import ParleyHTTPConventions

/// The response to a download: the whole file (200), a byte range (206), the range refused
/// (416) or "not modified" (304), streamed and decrypted a chunk at a time.
struct FileResponse {
    let file: FileDownload
    let request: Request

    func make() async throws -> Response {
        var headers = HTTPFields()
        headers[.eTag] = file.etag
        headers[.cacheControl] = "private, max-age=86400"
        headers[.acceptRanges] = "bytes"
        if let tags = request.headers[.ifNoneMatch], Self.matches(tags, file.etag) {
            return Response(status: .notModified, headers: headers)
        }
        let size = file.size
        var range: Range<Int64> = 0..<size
        var status = HTTPResponse.Status.ok
        if let header = request.headers[.range] {
            switch ByteRange.parse(header, size: size) {
            case .whole: break
            case .part(let part):
                range = part
                status = .partialContent
                headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(size)"
            case .unsatisfiable:
                var response = ErrorResponses.response(
                    for: ParleyError.rangeNotSatisfiable(size: size)
                )
                response.headers[.contentRange] = "bytes */\(size)"
                return response
            }
        }
        // A tampered file is refused here, with an error, rather than cut off after the headers.
        let stream = try await file.open(range)
        headers[.contentType] = file.contentType.isEmpty ? "application/octet-stream" : file.contentType
        headers[.contentDisposition] = Self.disposition(name: file.name, type: file.contentType)
        headers[.xContentTypeOptions] = "nosniff"
        // Opened directly, an upload can run nothing: no scripts, no plugins, its own origin.
        headers[HTTPField.Name("Content-Security-Policy")!] = "default-src 'none'; img-src 'self'; media-src 'self'; sandbox"
        let body = ResponseBody(contentLength: Int(range.count)) { writer in
            try await stream.write { data in try await writer.write(ByteBuffer(bytes: data)) }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Media the browser can show safely opens inline; anything else (HTML, SVG, scripts) only
    /// downloads, so an upload can never run as a page of this origin.
    static func disposition(name: String, type: String) -> String {
        let lower = type.lowercased()
        let inline = ["image/", "video/", "audio/"].contains { lower.hasPrefix($0) } && !lower.contains("svg")
        let fallback = String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
        return "\(inline ? "inline" : "attachment"); filename=\"\(fallback)\"; filename*=UTF-8''\(encoded)"
    }

    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { tag in
            let tag = tag.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}

/// One `Range: bytes=…` (RFC 9110 §14.1.2). Several ranges, or a syntax error, get the whole file.
enum ByteRange: Equatable {
    case whole
    case part(Range<Int64>)
    case unsatisfiable

    static func parse(_ header: String, size: Int64) -> ByteRange {
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else { return .whole }
        let spec = text.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            // bytes=-N: the last N bytes.
            guard let suffix = Int64(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)..<size)
        }
        guard let start = Int64(first), start >= 0 else { return .whole }
        guard start < size else { return .unsatisfiable }
        if last.isEmpty { return .part(start..<size) }
        guard let end = Int64(last), end >= start else { return .whole }
        return .part(start..<min(end + 1, size))
    }
}
