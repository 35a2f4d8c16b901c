import Foundation
import Hummingbird
import ParleyCore

/// A request's JSON object with typed, validating accessors. A field that is absent or `null`
/// counts as not given; one of the wrong type is 400100–400104; a missing required one 400105.
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
        try rejectNUL(value)
        return JSONBody(fields: fields)
    }

    /// PostgreSQL text cannot hold U+0000, and a C string would silently end there: refuse it
    /// anywhere in the body rather than store something other than what was sent.
    private static func rejectNUL(_ value: JSONValue) throws {
        switch value {
        case .string(let text):
            if text.utf8.contains(0) { throw ParleyError.invalidValue("body", "strings must not contain U+0000") }
        case .array(let items):
            try items.forEach(rejectNUL)
        case .object(let fields):
            for (key, item) in fields {
                if key.utf8.contains(0) { throw ParleyError.invalidValue("body", "keys must not contain U+0000") }
                try rejectNUL(item)
            }
        default:
            break
        }
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
        return text
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
            return text
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
        return try entries.mapValues { entry in
            guard case .string(let text) = entry else { throw ParleyError.wrongType("\(key) values", expected: .string) }
            return text
        }
    }

    func requiredStringMap(_ key: String) throws -> [String: String] {
        guard let map = try stringMap(key) else { throw ParleyError.missing(key) }
        return map
    }
}
