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
    public var postgresText: String? {
        var text = "{"
        for (index, element) in enumerated() {
            if index > 0 { text += "," }
            guard let value = element.postgresText else {
                text += "NULL"
                continue
            }
            text += "\""
            // Per Unicode scalar, not per Character: a quote or backslash followed by a
            // combining mark is one Character that is neither, and went out unescaped.
            for scalar in value.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { text += "\\" }
                text.unicodeScalars.append(scalar)
            }
            text += "\""
        }
        return text + "}"
    }
}
