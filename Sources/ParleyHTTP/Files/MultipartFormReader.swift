import Foundation
import HTTPWire
import Hummingbird
import ParleyCore
import ParleyFiles
import ParleyHTTPConventions

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
        // Most requests are JSON: those are told apart by their first bytes, before the
        // parameters are parsed (1 % of the server's CPU under sends, profiled). Letters compare
        // without case; a false match only costs the full parse below.
        let leading = contentType.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard leading.count >= 10, zip(leading, "multipart/".utf8).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else { return nil }
        let parameters = HeaderParameters(contentType)
        guard parameters.value.lowercased() == "multipart/form-data" else { return nil }
        return parameters["boundary"].flatMap { $0.isEmpty || $0.utf8.count > 70 ? nil : $0 }
    }

    /// Reads the whole form. On any error the partial upload is deleted before rethrowing.
    func read(_ request: Request, boundary: String) async throws -> MultipartForm {
        var parser = MultipartStreamParser(boundary: boundary)
        let parts = PartCollector(files: files, maxFieldBytes: maxFieldBytes, maxFields: maxFields)
        // Fields and part headers are bounded too, so the whole body is.
        let maxBodyBytes = files.settings.maxUploadBytes + Int64(maxFields * (maxFieldBytes + 16 * 1024))
        try DeclaredLength.check(request, max: Int(maxBodyBytes))
        var bodyBytes: Int64 = 0
        do {
            for try await buffer in request.body {
                bodyBytes += Int64(buffer.readableBytes)
                guard bodyBytes <= maxBodyBytes else { throw ParleyError.bodyTooLarge(max: Int(maxBodyBytes)) }
                do {
                    try parser.feed(buffer) { try parts.handle($0) }
                } catch is MultipartStreamParser.ParseError {
                    throw ParleyError.invalidValue("body", "not valid multipart/form-data")
                }
                try await parts.storeFileSlices()
                if parser.isComplete { break }
            }
            guard parser.isComplete else { throw ParleyError.invalidValue("body", "the multipart body ends before its closing boundary") }
            return parts.form
        } catch {
            parts.form.upload?.abort()
            throw error
        }
    }
}

/// Turns the parser's events into fields and the upload.
private final class PartCollector {
    let files: FileService
    let maxFieldBytes: Int
    let maxFields: Int
    var form = MultipartForm()
    private var current: Part?
    private var fieldBytes: [UInt8] = []
    /// File bytes parsed from the latest network buffer, stored by `storeFileSlices`.
    private var fileSlices: [ByteBuffer] = []

    enum Part {
        case field(String)
        case file
    }

    init(files: FileService, maxFieldBytes: Int, maxFields: Int) {
        self.files = files
        self.maxFieldBytes = maxFieldBytes
        self.maxFields = maxFields
    }

    func handle(_ event: MultipartStreamParser.Event) throws {
        switch event {
        case .headers(let headers): try begin(headers)
        case .body(let buffer): try body(buffer)
        case .end: try complete()
        }
    }

    private func begin(_ headers: [String: String]) throws {
        let disposition = HeaderParameters(headers["content-disposition"] ?? "")
        guard disposition.value.lowercased() == "form-data", let name = disposition["name"], !name.isEmpty else {
            throw ParleyError.invalidValue("body", "every part needs Content-Disposition: form-data with a name")
        }
        guard name == "file" else {
            if form.fields[name] != nil { throw ParleyError.invalidValue(name, "is given twice") }
            guard form.fields.count < maxFields else { throw ParleyError.tooMany("A form may have at most \(maxFields) fields.") }
            current = .field(name)
            return
        }
        guard form.upload == nil else { throw ParleyError.invalidValue("file", "only one file may be sent") }
        form.upload = try files.beginUpload()
        form.fileName = disposition["filename*"].flatMap(Self.extendedValue) ?? disposition["filename"]
        form.fileContentType = headers["content-type"]
        current = .file
    }

    private func body(_ buffer: ByteBuffer) throws {
        switch current {
        case .file:
            fileSlices.append(buffer)
        case .field:
            guard fieldBytes.count + buffer.readableBytes <= maxFieldBytes else {
                throw ParleyError.bodyTooLarge(max: maxFieldBytes, what: "A form field")
            }
            fieldBytes.append(contentsOf: buffer.readableBytesView)
        case nil:
            break
        }
    }

    /// Encrypts and writes the file bytes parsed so far, off the cooperative threads (a write
    /// can block when the disk falls behind); the size limit is checked here too.
    func storeFileSlices() async throws {
        guard !fileSlices.isEmpty, let upload = form.upload else { return }
        let slices = fileSlices
        fileSlices = []
        try await upload.offloaded { upload in
            for slice in slices { try slice.withUnsafeReadableBytes { try upload.append($0) } }
        }
    }

    private func complete() throws {
        if case .field(let name) = current {
            guard let text = String(validating: fieldBytes, as: UTF8.self) else {
                throw ParleyError.invalidValue(name, "must be UTF-8 text")
            }
            try text.requireNoControlCharacters(field: name)
            form.fields[name] = text
        }
        current = nil
        fieldBytes = []
    }

    /// RFC 8187 `UTF-8''percent-encoded`.
    private static func extendedValue(_ text: String) -> String? {
        guard let range = text.range(of: "''") else { return nil }
        return PercentDecoding.decode(String(text[range.upperBound...]))
    }
}

/// `value; key=token; key="quoted"` (Content-Type, Content-Disposition). Spaces and tabs
/// outside quotes only separate; a quoted string is kept exactly (a field named `" a"` is not
/// the field `a`).
struct HeaderParameters {
    let value: String
    private var parameters: [String: String] = [:]

    init(_ header: String) {
        var pieces: [String] = []
        var piece = ""
        var quoted = false
        var escaped = false
        for character in header {
            if escaped {
                piece.append(character)
                escaped = false
                continue
            }
            if quoted && character == "\\" {
                escaped = true
                continue
            }
            if character == "\"" {
                quoted.toggle()
                continue
            }
            if character == ";" && !quoted {
                pieces.append(piece)
                piece = ""
                continue
            }
            if !quoted && (character == " " || character == "\t") { continue }
            piece.append(character)
        }
        pieces.append(piece)
        value = pieces[0].trimmingCharacters(in: .whitespaces)
        for parameter in pieces.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            let key = parameter[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            parameters[key] = String(parameter[parameter.index(after: equals)...])
        }
    }

    subscript(key: String) -> String? { parameters[key] }
}
