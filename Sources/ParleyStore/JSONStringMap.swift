/// Reads the JSON object of strings that `json_object_agg(key, value)` produces (metadata maps).
///
/// Metadata arrives with every user and channel row; a dedicated reader for this one shape is
/// several times faster than a general JSON decoder, and it accepts exactly the JSON grammar for
/// an object of strings, nothing else.
enum JSONStringMap {
    struct Malformed: Error {}

    static func parse(_ text: String) throws -> [String: String] {
        var text = text
        return try text.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            return try reader.object()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func object() throws -> [String: String] {
            try expect(UInt8(ascii: "{"))
            var map: [String: String] = [:]
            skipWhitespace()
            if peek() == UInt8(ascii: "}") {
                index += 1
                return try end(map)
            }
            while true {
                let key = try string()
                try expect(UInt8(ascii: ":"))
                map[key] = try string()
                skipWhitespace()
                guard index < bytes.count else { throw Malformed() }
                let separator = bytes[index]
                index += 1
                if separator == UInt8(ascii: "}") { return try end(map) }
                guard separator == UInt8(ascii: ",") else { throw Malformed() }
            }
        }

        private mutating func end(_ map: [String: String]) throws -> [String: String] {
            skipWhitespace()
            guard index == bytes.count else { throw Malformed() }
            return map
        }

        private mutating func string() throws -> String {
            try expect(UInt8(ascii: "\""))
            var scalars: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: scalars, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    try escape(into: &scalars)
                default:
                    scalars.append(byte)
                }
            }
            throw Malformed()
        }

        private mutating func escape(into output: inout [UInt8]) throws {
            guard index < bytes.count else { throw Malformed() }
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    try expect(UInt8(ascii: "\\"))
                    try expect(UInt8(ascii: "u"))
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw Malformed() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw Malformed() }
                output.append(contentsOf: Array(String(Character(unicode)).utf8))
            default:
                throw Malformed()
            }
        }

        private mutating func hex4() throws -> UInt32 {
            guard index + 4 <= bytes.count else { throw Malformed() }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                index += 1
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw Malformed()
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }

        private mutating func expect(_ byte: UInt8) throws {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == byte else { throw Malformed() }
            index += 1
        }

        private func peek() -> UInt8? {
            index < bytes.count ? bytes[index] : nil
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }
    }
}
