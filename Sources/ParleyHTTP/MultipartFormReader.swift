import Foundation
import Hummingbird
import MultipartKit
import ParleyCore
import ParleyFiles

/// A `multipart/form-data` upload (API.md §5.1) read as it streams in: text fields are kept
/// (each at most `maxFieldBytes`), the `file` part goes straight into a `FileUpload` chunk by
/// chunk, so the body is never held whole and an oversized file is refused as it passes the limit.
struct MultipartForm {
    var fields: [String: String] = [:]
    var upload: FileUpload?
    /// The file part's own `filename` and `Content-Type`.
    var fileName: String?
    var fileContentType: String?
}

struct MultipartFormReader {
    let files: FileService
    let maxFieldBytes: Int
    let maxFields = 32

    /// The boundary of a `multipart/form-data` content type; nil for any other type.
    static func boundary(of contentType: String) -> String? {
        let parameters = HeaderParameters(contentType)
        guard parameters.value.lowercased() == "multipart/form-data" else { return nil }
        return parameters["boundary"].flatMap { $0.isEmpty || $0.utf8.count > 70 ? nil : $0 }
    }

    /// Reads the whole form. On any error the partial upload is deleted before rethrowing.
    func read(_ request: Request, boundary: String) async throws -> MultipartForm {
        let parser = MultipartParser(boundary: boundary)
        let parts = PartCollector(maxFieldBytes: maxFieldBytes, maxFields: maxFields)
        parser.onHeader = { name, value in parts.header(name, value) }
        parser.onBody = { buffer in parts.body(&buffer) }
        parser.onPartComplete = { parts.complete() }
        // Fields and part headers are bounded too, so the whole body is.
        let maxBodyBytes = files.settings.maxUploadBytes + Int64(maxFields * (maxFieldBytes + 1024))
        var bodyBytes: Int64 = 0
        do {
            for try await buffer in request.body {
                bodyBytes += Int64(buffer.readableBytes)
                guard bodyBytes <= maxBodyBytes else { throw ParleyError.bodyTooLarge(max: Int(maxBodyBytes)) }
                do { try parser.execute(buffer) } catch { throw ParleyError.invalidValue("body", "not valid multipart/form-data") }
                try parts.check()
                if parts.wantsUpload { parts.form.upload = try files.beginUpload() }
                for var chunk in parts.takeFileChunks() {
                    try chunk.withUnsafeReadableBytes { try parts.form.upload!.append($0) }
                    chunk.clear()
                }
            }
            guard parts.isFinished else { throw ParleyError.invalidValue("body", "the multipart body ends inside a part") }
            return parts.form
        } catch {
            parts.form.upload?.abort()
            throw error
        }
    }
}

/// Receives the parser's callbacks (which cannot await) and keeps what the reader then handles.
private final class PartCollector {
    let maxFieldBytes: Int
    let maxFields: Int
    var form = MultipartForm()
    private var headers: [String: String] = [:]
    private var current: Part?
    private var fieldBytes: [UInt8] = []
    private var fileChunks: [ByteBuffer] = []
    private var error: ParleyError?
    private(set) var wantsUpload = false
    private(set) var isFinished = true

    enum Part { case field(String), file }

    init(maxFieldBytes: Int, maxFields: Int) {
        self.maxFieldBytes = maxFieldBytes
        self.maxFields = maxFields
    }

    func header(_ name: String, _ value: String) {
        isFinished = false
        headers[name.lowercased()] = value
    }

    func body(_ buffer: inout ByteBuffer) {
        if current == nil { begin() }
        switch current {
        case .file: fileChunks.append(buffer)
        case .field:
            guard fieldBytes.count + buffer.readableBytes <= maxFieldBytes else {
                fail(ParleyError(status: 413, code: 400110, message: "A form field is longer than \(maxFieldBytes) bytes."))
                return
            }
            fieldBytes.append(contentsOf: buffer.readableBytesView)
        case nil: break
        }
    }

    func complete() {
        if current == nil { begin() }
        if case .field(let name) = current {
            guard let text = String(validating: fieldBytes, as: UTF8.self), !text.utf8.contains(0) else {
                fail(ParleyError.invalidValue(name, "must be UTF-8 text without U+0000"))
                return
            }
            if form.fields.count >= maxFields { fail(ParleyError.tooMany("A form may have at most \(maxFields) fields.")) }
            if form.fields[name] != nil { fail(ParleyError.invalidValue(name, "is given twice")) }
            form.fields[name] = text
        }
        current = nil
        headers = [:]
        fieldBytes = []
        isFinished = true
    }

    /// Throws what a callback found wrong.
    func check() throws {
        if let error { throw error }
    }

    func takeFileChunks() -> [ByteBuffer] {
        wantsUpload = false
        defer { fileChunks = [] }
        return fileChunks
    }

    private func begin() {
        isFinished = false
        let disposition = HeaderParameters(headers["content-disposition"] ?? "")
        guard disposition.value.lowercased() == "form-data", let name = disposition["name"], !name.isEmpty else {
            fail(ParleyError.invalidValue("body", "every part needs Content-Disposition: form-data with a name"))
            return
        }
        guard name == "file" else {
            current = .field(name)
            return
        }
        guard form.upload == nil && !wantsUpload else { return fail(ParleyError.invalidValue("file", "only one file may be sent")) }
        current = .file
        wantsUpload = true
        form.fileName = disposition["filename*"].flatMap(Self.extendedValue) ?? disposition["filename"]
        form.fileContentType = headers["content-type"]
    }

    private func fail(_ error: ParleyError) {
        if self.error == nil { self.error = error }
        current = nil
    }

    /// RFC 8187 `UTF-8''percent-encoded`.
    private static func extendedValue(_ text: String) -> String? {
        guard let range = text.range(of: "''") else { return nil }
        return String(text[range.upperBound...]).removingPercentEncoding
    }
}

/// `value; key=token; key="quoted"` (Content-Type, Content-Disposition).
struct HeaderParameters {
    let value: String
    private var parameters: [String: String] = [:]

    init(_ header: String) {
        var pieces: [String] = []
        var piece = ""
        var quoted = false
        var escaped = false
        for character in header {
            if escaped { piece.append(character); escaped = false; continue }
            if quoted && character == "\\" { escaped = true; continue }
            if character == "\"" { quoted.toggle(); continue }
            if character == ";" && !quoted { pieces.append(piece); piece = ""; continue }
            piece.append(character)
        }
        pieces.append(piece)
        value = pieces[0].trimmingCharacters(in: .whitespaces)
        for parameter in pieces.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let key = parameter[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            parameters[key] = String(parameter[parameter.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        }
    }

    subscript(key: String) -> String? { parameters[key] }
}
