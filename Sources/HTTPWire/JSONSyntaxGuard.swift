/// Checks that a request body is strict RFC 8259 JSON nested at most `maxDepth` deep, with a
/// single pass over the bytes and no recursion, before any decoder sees it.
///
/// Two reasons. swift-foundation's `JSONDecoder` kills the process (SIGILL) on a body that ends
/// inside exactly 513 nested arrays: its depth-limit error reads one byte past the buffer
/// (../shared/design/C-LIBRARIES.md). And the decoder is lenient where the RFC is not: it takes
/// trailing commas (`{"a":1,}`), which a strict peer would refuse. Everything this guard lets
/// through is strict JSON of bounded depth, so the decoder only ever sees input it handles.
///
/// It also refuses an object that repeats a key (`JSONObjectKeys`), which the decoder would take.
public enum JSONSyntaxGuard {
    /// Deeper than any body of the API needs (the deepest is three levels).
    public static let maxDepth = 64

    public struct Violation: Error, CustomStringConvertible {
        public let description: String
    }

    private enum Expecting {
        case value, valueOrArrayEnd, key, keyOrObjectEnd, colon, separatorOrEnd
    }

    public static func check(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = maxDepth) throws {
        var scanner = Scanner(bytes: bytes)
        // The open containers, innermost last: true for an object, false for an array.
        var open: [Bool] = []
        var keys = JSONObjectKeys()
        var expecting = Expecting.value
        while true {
            scanner.skipWhitespace()
            guard let byte = scanner.peek() else {
                guard open.isEmpty, expecting == .separatorOrEnd else { throw Violation(description: "the JSON ends too early") }
                return
            }
            switch expecting {
            case .value, .valueOrArrayEnd:
                if expecting == .valueOrArrayEnd && byte == UInt8(ascii: "]") {
                    scanner.index += 1
                    open.removeLast()
                    expecting = .separatorOrEnd
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    guard open.count < maxDepth else { throw Violation(description: "the JSON is nested deeper than \(maxDepth) levels") }
                    scanner.index += 1
                    open.append(byte == UInt8(ascii: "{"))
                    if byte == UInt8(ascii: "{") { keys.objectOpened() }
                    expecting = byte == UInt8(ascii: "{") ? .keyOrObjectEnd : .valueOrArrayEnd
                } else {
                    try scanner.scalar()
                    expecting = .separatorOrEnd
                }
            case .key, .keyOrObjectEnd:
                if expecting == .keyOrObjectEnd && byte == UInt8(ascii: "}") {
                    scanner.index += 1
                    open.removeLast()
                    keys.objectClosed()
                    expecting = .separatorOrEnd
                } else {
                    guard byte == UInt8(ascii: "\"") else { throw Violation(description: "an object key must be a string") }
                    let start = scanner.index + 1
                    let isPlain = try scanner.string()
                    let quoted = UnsafeRawBufferPointer(rebasing: bytes[start..<scanner.index - 1])
                    guard keys.insert(quoted, isPlain: isPlain) else { throw Violation(description: "an object repeats a key") }
                    expecting = .colon
                }
            case .colon:
                guard byte == UInt8(ascii: ":") else { throw Violation(description: "a key must be followed by ':'") }
                scanner.index += 1
                expecting = .value
            case .separatorOrEnd:
                guard let isObject = open.last else { throw Violation(description: "text after the JSON value") }
                scanner.index += 1
                switch byte {
                // After a comma the next item must come: no trailing commas.
                case UInt8(ascii: ","): expecting = isObject ? .key : .value
                case UInt8(ascii: "}") where isObject, UInt8(ascii: "]") where !isObject:
                    open.removeLast()
                    if isObject { keys.objectClosed() }
                    expecting = .separatorOrEnd
                default: throw Violation(description: "unexpected character in a JSON \(isObject ? "object" : "array")")
                }
            }
        }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        func peek() -> UInt8? {
            index < bytes.count ? bytes[index] : nil
        }

        mutating func skipWhitespace() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// A string, number or literal.
        mutating func scalar() throws {
            switch peek() ?? 0 {
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw Violation(description: "a JSON value was expected")
            }
        }

        /// A quoted string with valid escapes and no raw control characters; UTF-8 validity is
        /// left to the decoder, which checks it. Returns whether it is plain: ASCII, no escapes.
        @discardableResult
        mutating func string() throws -> Bool {
            index += 1
            var isPlain = true
            while let byte = peek() {
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return isPlain
                case UInt8(ascii: "\\"):
                    isPlain = false
                    guard let escaped = peek() else { break }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let digit = peek(), digit.isHexDigit else {
                                throw Violation(description: "a \\u escape needs four hex digits")
                            }
                            index += 1
                        }
                    default: throw Violation(description: "an invalid escape in a string")
                    }
                case 0..<0x20: throw Violation(description: "a control character in a string")
                case 0x80...: isPlain = false
                default: continue
                }
            }
            throw Violation(description: "a string is not closed")
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
        mutating func number() throws {
            if peek() == UInt8(ascii: "-") { index += 1 }
            guard let first = peek(), first.isDigit else { throw Violation(description: "a malformed number") }
            index += 1
            if first != UInt8(ascii: "0") { digits() }
            if peek() == UInt8(ascii: ".") {
                index += 1
                guard peek()?.isDigit == true else { throw Violation(description: "a malformed number") }
                digits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                index += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
                guard peek()?.isDigit == true else { throw Violation(description: "a malformed number") }
                digits()
            }
        }

        private mutating func digits() {
            while peek()?.isDigit == true { index += 1 }
        }

        private mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count,
                word.withUTF8Buffer({ expected in (0..<count).allSatisfy { bytes[index + $0] == expected[$0] } })
            else { throw Violation(description: "an unknown literal") }
            index += count
        }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
