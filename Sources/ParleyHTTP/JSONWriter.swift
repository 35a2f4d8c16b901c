import NIOCore

/// A value that writes itself as JSON. Response bodies are written directly into a ByteBuffer:
/// on the hot read paths this is several times cheaper than `JSONEncoder`.
protocol JSONWritable {
    func write(to json: inout JSONWriter)
}

/// Appends JSON tokens to a buffer; commas between members and elements are placed automatically.
struct JSONWriter {
    private(set) var buffer: ByteBuffer
    private var needsComma = false

    init(capacity: Int = 512) {
        buffer = ByteBufferAllocator().buffer(capacity: capacity)
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        buffer.writeInteger(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        buffer.writeInteger(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array(_ body: (inout JSONWriter) -> Void) {
        separate()
        buffer.writeInteger(UInt8(ascii: "["))
        needsComma = false
        body(&self)
        buffer.writeInteger(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"name":`; the value written next belongs to it.
    mutating func key(_ name: String) {
        separate()
        writeQuoted(name)
        buffer.writeInteger(UInt8(ascii: ":"))
        needsComma = false
    }

    /// A member name written in the source: it needs no escaping, so it is copied as is.
    mutating func key(_ name: StaticString) {
        separate()
        buffer.writeInteger(UInt8(ascii: "\""))
        buffer.writeStaticString(name)
        buffer.writeStaticString("\":")
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        writeQuoted(value)
        needsComma = true
    }

    mutating func int(_ value: Int64) {
        separate()
        // Digits straight into the buffer, without a String per number.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for any Int64
        withUnsafeMutableBytes(of: &digits) { scratch in
            var magnitude = value.magnitude
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                index -= 1
                scratch[index] = UInt8(ascii: "-")
            }
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: scratch[index...]))
        }
        needsComma = true
    }

    mutating func bool(_ value: Bool) {
        separate()
        buffer.writeStaticString(value ? "true" : "false")
        needsComma = true
    }

    mutating func null() {
        separate()
        buffer.writeStaticString("null")
        needsComma = true
    }

    mutating func value(_ value: some JSONWritable) {
        value.write(to: &self)
    }

    mutating func field(_ name: StaticString, _ value: String) { key(name); string(value) }
    mutating func field(_ name: StaticString, _ value: Int64) { key(name); int(value) }
    mutating func field(_ name: StaticString, _ value: Int) { key(name); int(Int64(value)) }
    mutating func field(_ name: StaticString, _ value: Bool) { key(name); bool(value) }
    mutating func field(_ name: StaticString, _ value: some JSONWritable) { key(name); value.write(to: &self) }

    /// A string → string object (metadata), keys in sorted order for stable output.
    /// A member whose name is data (a user id, a metadata key): escaped like any string.
    mutating func member(_ name: String, _ value: String) { key(name); string(value) }
    mutating func member(_ name: String, _ value: Int64) { key(name); int(value) }
    mutating func member(_ name: String, _ value: Int) { key(name); int(Int64(value)) }

    mutating func field(_ name: StaticString, _ map: [String: String]) {
        key(name)
        StringMapJSON(map: map).write(to: &self)
    }

    private mutating func separate() {
        if needsComma { buffer.writeInteger(UInt8(ascii: ",")) }
    }

    private mutating func writeQuoted(_ text: String) {
        buffer.writeInteger(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            // Most strings need no escaping: copy them whole.
            guard bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                buffer.writeBytes(bytes)
                return
            }
            for byte in bytes { writeEscaped(byte) }
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): buffer.writeStaticString("\\\"")
        case UInt8(ascii: "\\"): buffer.writeStaticString("\\\\")
        case 0x0A: buffer.writeStaticString("\\n")
        case 0x0D: buffer.writeStaticString("\\r")
        case 0x09: buffer.writeStaticString("\\t")
        case 0..<0x20:
            let digits = Array("0123456789abcdef".utf8)
            buffer.writeStaticString("\\u00")
            buffer.writeInteger(digits[Int(byte >> 4)])
            buffer.writeInteger(digits[Int(byte & 0x0F)])
        default: buffer.writeInteger(byte)
        }
    }
}

/// A plain string map as a JSON object (metadata endpoints answer the bare map).
struct StringMapJSON: JSONWritable {
    let map: [String: String]

    func write(to json: inout JSONWriter) {
        json.object { json in
            for entry in map.sorted(by: { $0.key < $1.key }) { json.member(entry.key, entry.value) }
        }
    }
}
