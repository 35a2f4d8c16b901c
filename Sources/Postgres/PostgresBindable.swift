import Foundation

/// A Swift value that can be sent as a query parameter, in PostgreSQL's text format.
///
/// Parameters always travel separately from the SQL text (`PQexecPrepared`), so no value is ever
/// interpolated into a statement.
public protocol PostgresBindable: Sendable {
    /// The text form PostgreSQL parses for the parameter's type; `nil` is SQL NULL.
    var postgresText: String? { get }
}

extension String: PostgresBindable {
    public var postgresText: String? { self }
}

extension Int: PostgresBindable {
    public var postgresText: String? { String(self) }
}

extension Int64: PostgresBindable {
    public var postgresText: String? { String(self) }
}

extension Int32: PostgresBindable {
    public var postgresText: String? { String(self) }
}

extension Double: PostgresBindable {
    public var postgresText: String? { String(self) }
}

extension Bool: PostgresBindable {
    public var postgresText: String? { self ? "t" : "f" }
}

extension Optional: PostgresBindable where Wrapped: PostgresBindable {
    public var postgresText: String? { self?.postgresText }
}

extension Data: PostgresBindable {
    /// bytea in hex form (`\x…`).
    public var postgresText: String? {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        bytes.reserveCapacity(2 + count * 2)
        for byte in self {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Array: PostgresBindable where Element: PostgresBindable {
    /// An array literal (`text[]`, `bigint[]`, …): every element quoted, with `"` and `\`
    /// escaped, and nil as NULL.
    ///
    /// Built in UTF-8 bytes: a send's events travel as arrays of JSON texts, and appending them
    /// scalar by scalar to a String cost a twentieth of the server's CPU under sends (profiled).
    /// Escaping bytes is escaping scalars: in UTF-8 the bytes of `"` and `\` never occur inside
    /// another scalar's encoding (and a quote followed by a combining mark is still escaped).
    public var postgresText: String? {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (index, element) in enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            guard var value = element.postgresText else {
                bytes.append(contentsOf: "NULL".utf8)
                continue
            }
            bytes.append(UInt8(ascii: "\""))
            value.withUTF8 { utf8 in
                bytes.reserveCapacity(bytes.count + utf8.count + 2)
                for byte in utf8 {
                    if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
