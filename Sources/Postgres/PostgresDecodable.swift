import Foundation

/// A Swift type that can be read from a column in PostgreSQL's text format.
public protocol PostgresDecodable {
    init(postgresText text: UnsafePointer<CChar>, length: Int) throws
}

private func decodingError(_ type: Any.Type, _ text: UnsafePointer<CChar>) -> PostgresError {
    PostgresError(kind: .decoding, message: "cannot read \(type) from \"\(String(cString: text).prefix(40))\"")
}

extension String: PostgresDecodable {
    public init(postgresText text: UnsafePointer<CChar>, length: Int) throws {
        self = String(cString: text)
    }
}

extension Int64: PostgresDecodable {
    public init(postgresText text: UnsafePointer<CChar>, length: Int) throws {
        var end: UnsafeMutablePointer<CChar>?
        let value = strtoll(text, &end, 10)
        guard length > 0, let end, end == UnsafeMutablePointer(mutating: text) + length else {
            throw decodingError(Int64.self, text)
        }
        self = value
    }
}

extension Int: PostgresDecodable {
    public init(postgresText text: UnsafePointer<CChar>, length: Int) throws {
        self = Int(try Int64(postgresText: text, length: length))
    }
}

extension Double: PostgresDecodable {
    public init(postgresText text: UnsafePointer<CChar>, length: Int) throws {
        guard let value = Double(String(cString: text)) else { throw decodingError(Double.self, text) }
        self = value
    }
}

extension Bool: PostgresDecodable {
    public init(postgresText text: UnsafePointer<CChar>, length: Int) throws {
        switch text.pointee {
        case CChar(UInt8(ascii: "t")): self = true
        case CChar(UInt8(ascii: "f")): self = false
        default: throw decodingError(Bool.self, text)
        }
    }
}

extension Data: PostgresDecodable {
    /// bytea arrives in hex form (`\x…`).
    public init(postgresText text: UnsafePointer<CChar>, length: Int) throws {
        guard length >= 2, length % 2 == 0, text[0] == CChar(UInt8(ascii: "\\")), text[1] == CChar(UInt8(ascii: "x")) else {
            throw decodingError(Data.self, text)
        }
        var bytes = Data(capacity: (length - 2) / 2)
        var index = 2
        while index < length {
            guard let high = hexValue(text[index]), let low = hexValue(text[index + 1]) else {
                throw decodingError(Data.self, text)
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        self = bytes
    }
}

private func hexValue(_ char: CChar) -> UInt8? {
    switch UInt8(bitPattern: char) {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(bitPattern: char) - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt8(bitPattern: char) - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt8(bitPattern: char) - UInt8(ascii: "A") + 10
    default: nil
    }
}

extension Array: PostgresDecodable where Element == String {
    /// A one-dimensional `text[]` in PostgreSQL's output form: `{a,"b c","d\"e"}`. NULL elements
    /// are refused: the columns read this way are declared without them.
    public init(postgresText text: UnsafePointer<CChar>, length: Int) throws {
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: length)
        guard length >= 2, bytes[0] == UInt8(ascii: "{"), bytes[length - 1] == UInt8(ascii: "}") else {
            throw PostgresError(kind: .decoding, message: "not a one-dimensional array: \(String(cString: text).prefix(40))")
        }
        var elements: [String] = []
        var index = 1
        while index < length - 1 {
            var element: [UInt8] = []
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                while index < length - 1, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    element.append(bytes[index])
                    index += 1
                }
                index += 1  // closing quote
            } else {
                while index < length - 1, bytes[index] != UInt8(ascii: ",") {
                    element.append(bytes[index])
                    index += 1
                }
                if element.elementsEqual("NULL".utf8) {
                    throw PostgresError(kind: .decoding, message: "unexpected NULL element in a text[] column")
                }
            }
            elements.append(String(decoding: element, as: UTF8.self))
            index += 1  // the comma
        }
        self = elements
    }
}

/// An enumeration stored as its raw value: a value outside the enumeration is a decoding error
/// (a corrupt or newer row), never silently some default case.
extension PostgresDecodable where Self: RawRepresentable, RawValue: PostgresDecodable {
    public init(postgresText text: UnsafePointer<CChar>, length: Int) throws {
        let raw = try RawValue(postgresText: text, length: length)
        guard let value = Self(rawValue: raw) else { throw decodingError(Self.self, text) }
        self = value
    }
}
