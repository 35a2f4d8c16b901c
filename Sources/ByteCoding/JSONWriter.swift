/// A value that writes itself as JSON. Response bodies and webhook payloads are written directly
/// as bytes: on the hot paths this is several times cheaper than `JSONEncoder` or
/// `JSONSerialization`.
public protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

/// Appends JSON tokens to a buffer; commas between members and elements are placed automatically.
///
/// The tokens go into a byte array that becomes one `ByteBuffer` at the end: appending to an
/// array is inlined, while each small `ByteBuffer` write pays capacity, uniqueness and exclusivity
/// checks (measured: half the cost of writing a user).
public struct JSONWriter {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    public init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"name":`; the value written next belongs to it.
    public mutating func key(_ name: String) {
        separate()
        writeQuoted(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A member name written in the source: it needs no escaping, so it is copied as is.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        append(name)
        append("\":")
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separate()
        writeQuoted(value)
        needsComma = true
    }

    public mutating func int(_ value: Int64) {
        separate()
        // Up to 15 digits is a small string, which needs no allocation.
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        append(value ? "true" : "false")
        needsComma = true
    }

    public mutating func null() {
        separate()
        append("null")
        needsComma = true
    }

    public mutating func value(_ value: some JSONWritable) {
        value.write(to: &self)
    }

    /// A value another writer wrote (one value: an object, an array, a string…), copied as is.
    public mutating func value(written other: JSONWriter) {
        separate()
        bytes.append(contentsOf: other.bytes)
        needsComma = true
    }

    /// Bytes written so far.
    public var count: Int { bytes.count }

    /// Where the writer stands: `rollBack(to:)` returns there, as if nothing had been written since.
    public struct Mark: Sendable {
        fileprivate let count: Int
        fileprivate let needsComma: Bool
    }

    public var mark: Mark { Mark(count: bytes.count, needsComma: needsComma) }

    public mutating func rollBack(to mark: Mark) {
        bytes.removeSubrange(mark.count...)
        needsComma = mark.needsComma
    }

    public mutating func field(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }
    public mutating func field(_ name: StaticString, _ value: Int64) {
        key(name)
        int(value)
    }
    public mutating func field(_ name: StaticString, _ value: Int) {
        key(name)
        int(Int64(value))
    }
    public mutating func field(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }
    public mutating func field(_ name: StaticString, _ value: some JSONWritable) {
        key(name)
        value.write(to: &self)
    }

    /// A member whose name is data (a user id, a metadata key): escaped like any string.
    public mutating func member(_ name: String, _ value: String) {
        key(name)
        string(value)
    }
    public mutating func member(_ name: String, _ value: Int64) {
        key(name)
        int(value)
    }

    /// A string → string object (metadata), keys in sorted order for stable output.
    public mutating func field(_ name: StaticString, _ map: [String: String]) {
        key(name)
        StringMapJSON(map: map).write(to: &self)
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func writeQuoted(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            // Most strings need no escaping: copy them whole.
            guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 { writeEscaped(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0..<0x20:
            let digits = Array("0123456789abcdef".utf8)
            append("\\u00")
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        default: bytes.append(byte)
        }
    }
}

/// A string map as a JSON object: a user's metadata, a message's translations.
public struct StringMapJSON: JSONWritable {
    let map: [String: String]

    public init(map: [String: String]) {
        self.map = map
    }

    public func write(to json: inout JSONWriter) {
        json.object { json in
            for entry in map.sorted(by: { $0.key < $1.key }) { json.member(entry.key, entry.value) }
        }
    }
}
