import Foundation
import Hummingbird
import ParleyCore

/// A request's JSON object with typed, validating accessors. A field that is absent or `null`
/// counts as not given; one of the wrong type is 400100–400104; a missing required one 400105.
/// Fields that no accessor reads are ignored.
///
/// PostgreSQL text cannot hold U+0000, and a C string would silently end there: every string
/// (and map key) an accessor reads is refused with 400111 when it holds U+0000, rather than
/// stored as something other than what was sent. Fields the server ignores are not checked.
struct JSONBody: Sendable {
    let fields: [String: JSONValue]

    /// Reads and parses the body: at most `maxBytes` (else 413), JSON (else 415 for another
    /// declared type, 400403 for broken, non-strict or too deeply nested JSON, checked before
    /// any decoder runs), an object (else 400103). An empty body is `{}`.
    static func read(_ request: Request, maxBytes: Int) async throws -> JSONBody {
        if let type = request.headers[.contentType], !isJSON(type) {
            throw ParleyError.unsupportedMediaType(type)
        }
        try DeclaredLength.check(request, max: maxBytes)
        let buffer = try await request.body.collect(upTo: maxBytes)
        guard buffer.readableBytes > 0 else { return JSONBody(fields: [:]) }
        do {
            try buffer.withUnsafeReadableBytes { try JSONSyntaxGuard.check($0) }
        } catch let violation as JSONSyntaxGuard.Violation {
            throw ParleyError.invalidJSON(violation.description)
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(buffer: buffer))
        } catch {
            throw ParleyError.invalidJSON
        }
        guard case .object(let fields) = value else { throw ParleyError.wrongType("body", expected: .object) }
        return JSONBody(fields: fields)
    }

    /// A string the server reads, refused when it holds U+0000 (see the type's comment).
    private static func text(_ text: String, field: String) throws -> String {
        if text.utf8.contains(0) { throw ParleyError.invalidValue(field, "must not contain U+0000") }
        return text
    }

    private static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }

    private func present(_ key: String) -> JSONValue? {
        guard let value = fields[key], value != .null else { return nil }
        return value
    }

    func string(_ key: String) throws -> String? {
        guard let value = present(key) else { return nil }
        guard case .string(let text) = value else { throw ParleyError.wrongType(key, expected: .string) }
        return try Self.text(text, field: key)
    }

    func requiredString(_ key: String) throws -> String {
        guard let text = try string(key) else { throw ParleyError.missing(key) }
        return text
    }

    func bool(_ key: String) throws -> Bool? {
        guard let value = present(key) else { return nil }
        guard case .bool(let flag) = value else { throw ParleyError.wrongType(key, expected: .boolean) }
        return flag
    }

    func int64(_ key: String) throws -> Int64? {
        guard let value = present(key) else { return nil }
        switch value {
        case .integer(let number): return number
        case .number: throw ParleyError.invalidValue(key, "must be a whole number")
        default: throw ParleyError.wrongType(key, expected: .number)
        }
    }

    func stringList(_ key: String) throws -> [String]? {
        guard let value = present(key) else { return nil }
        guard case .array(let items) = value else { throw ParleyError.wrongType(key, expected: .list) }
        return try items.map { item in
            guard case .string(let text) = item else { throw ParleyError.wrongType("\(key)[]", expected: .string) }
            return try Self.text(text, field: "\(key)[]")
        }
    }

    /// A list of JSON objects, each readable with the same accessors.
    func objectList(_ key: String) throws -> [JSONBody]? {
        guard let value = present(key) else { return nil }
        guard case .array(let items) = value else { throw ParleyError.wrongType(key, expected: .list) }
        return try items.map { item in
            guard case .object(let fields) = item else { throw ParleyError.wrongType("\(key)[]", expected: .object) }
            return JSONBody(fields: fields)
        }
    }

    /// A JSON object whose values are all strings (metadata maps).
    func stringMap(_ key: String) throws -> [String: String]? {
        guard let value = present(key) else { return nil }
        guard case .object(let entries) = value else { throw ParleyError.wrongType(key, expected: .object) }
        var map: [String: String] = [:]
        for (name, entry) in entries {
            guard case .string(let text) = entry else { throw ParleyError.wrongType("\(key) values", expected: .string) }
            map[try Self.text(name, field: "\(key) keys")] = try Self.text(text, field: "\(key) values")
        }
        return map
    }

    func requiredStringMap(_ key: String) throws -> [String: String] {
        guard let map = try stringMap(key) else { throw ParleyError.missing(key) }
        return map
    }
}
