import ByteCoding
import ParleyCore

/// A request body field read with the rules of API.md §1.5 that plain `Decodable` does not make.
/// Every string, list of strings, string map, whole number and required boolean a body declares
/// is `@Checked`; other booleans and lists of objects need nothing more than `Decodable`.
///
/// - Control characters other than tab, line feed and carriage return are refused with 400111 in
///   a string, a list item or a string map's key or value (`String.hasRefusedControlCharacters`:
///   PostgreSQL text cannot hold U+0000, and the others cost six bytes each in every response).
///   Only declared fields are read, so a field the server ignores is never refused.
/// - A number with a fraction (or too large for 64 bits) where a whole number goes is 400111
///   "must be a whole number": `JSONDecoder` reports it as corrupted data, which does not always
///   carry the field's coding path, so the field could not be named.
/// - A string map's values must be strings (400100 for `metadata values`).
/// - A required boolean that is `null` is missing (400105): `JSONDecoder` calls it a type mismatch.
///
/// An optional field is not given when absent or `null`, as for any other optional.
@propertyWrapper
public struct Checked<Value: CheckedDecodable>: Decodable {
    public var wrappedValue: Value

    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try Value(checking: decoder)
    }
}

extension KeyedDecodingContainer {
    /// Synthesized decoding asks for a wrapped property's key even when the value is optional:
    /// this overload lets an optional `@Checked` field be absent.
    public func decode<Wrapped>(_ type: Checked<Wrapped?>.Type, forKey key: Key) throws -> Checked<Wrapped?> {
        try decodeIfPresent(type, forKey: key) ?? Checked(wrappedValue: nil)
    }
}

/// A value `Checked` can read.
public protocol CheckedDecodable {
    init(checking decoder: any Decoder) throws
}

extension String: CheckedDecodable {
    public init(checking decoder: any Decoder) throws {
        self = try decoder.singleValueContainer().decode(String.self)
        try requireNoControlCharacters(field: DecodingFailure.fieldName(decoder.codingPath))
    }
}

extension Int64: CheckedDecodable {
    public init(checking decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let whole = try? container.decode(Int64.self) {
            self = whole
            return
        }
        // Not a number at all is the type mismatch this throws (400101).
        _ = try container.decode(Double.self)
        throw ParleyError.invalidValue(DecodingFailure.fieldName(decoder.codingPath), "must be a whole number")
    }
}

extension Bool: CheckedDecodable {
    public init(checking decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { throw ParleyError.missing(DecodingFailure.fieldName(decoder.codingPath)) }
        self = try container.decode(Bool.self)
    }
}

extension Optional: CheckedDecodable where Wrapped: CheckedDecodable {
    public init(checking decoder: any Decoder) throws {
        self = try decoder.singleValueContainer().decodeNil() ? nil : try Wrapped(checking: decoder)
    }
}

extension Array: CheckedDecodable where Element: CheckedDecodable {
    /// Each item is named `field[]` in errors.
    public init(checking decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var items: [Element] = []
        while !container.isAtEnd {
            items.append(try Element(checking: try container.superDecoder()))
        }
        self = items
    }
}

extension Dictionary: CheckedDecodable where Key == String, Value == String {
    /// A string map (metadata): its keys are named `field keys` and its values `field values` in errors.
    /// Keys are taken in Unicode NFC (`String.nfc`), the one spelling the database stores.
    public init(checking decoder: any Decoder) throws {
        let field = DecodingFailure.fieldName(decoder.codingPath)
        let container = try decoder.container(keyedBy: MapKey.self)
        var map: [String: String] = [:]
        for key in container.allKeys {
            let value: String?
            do {
                value = try container.decodeIfPresent(String.self, forKey: key)
            } catch DecodingError.typeMismatch {
                value = nil
            }
            guard let value else { throw ParleyError.wrongType("\(field) values", expected: .string) }
            try key.stringValue.requireNoControlCharacters(field: "\(field) keys")
            try value.requireNoControlCharacters(field: "\(field) values")
            map[key.stringValue.nfc] = value
        }
        self = map
    }
}

/// A map of whole numbers (a channel's metacounter): keys as in a string map (NFC, no control
/// characters: `field keys`), each value a whole number in 64 bits (400101 when not a number,
/// 400111 when it has a fraction or is too large).
public struct CounterMap: CheckedDecodable, Sendable {
    public let values: [String: Int64]

    public init(checking decoder: any Decoder) throws {
        let field = DecodingFailure.fieldName(decoder.codingPath)
        let container = try decoder.container(keyedBy: MapKey.self)
        var values: [String: Int64] = [:]
        for key in container.allKeys {
            try key.stringValue.requireNoControlCharacters(field: "\(field) keys")
            if try container.decodeNil(forKey: key) { throw ParleyError.wrongType("\(field) values", expected: .number) }
            values[key.stringValue.nfc] = try Int64(checking: try container.superDecoder(forKey: key))
        }
        self.values = values
    }
}

/// Any key of a JSON object whose keys are data.
private struct MapKey: CodingKey {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(stringValue: String) {
        self.stringValue = stringValue
    }

    public init?(intValue: Int) {
        return nil
    }
}
