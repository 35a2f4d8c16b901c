import ByteCoding

/// The keys met so far in each open object of a body `JSONSyntaxGuard` checks, so that a key
/// given twice in one object is refused: the decoder would keep one of the two values, and which
/// one is not something a client can rely on. Two spellings of one key count as the same key:
/// escapes (`"a"` and `"\u0061"`) and Unicode normalization ("é" as U+00E9 or "e" + U+0301, which
/// a `String` dictionary takes for one key).
///
/// Cheap in the common case: a key of plain ASCII without escapes is compared as the bytes of
/// the body; only the others are decoded and normalized (to NFC). One set per open object, each
/// insert a hash, so a body of 100,000 keys costs 100,000 lookups.
struct JSONObjectKeys {
    private var open: [Set<Key>] = []

    mutating func objectOpened() {
        open.append([])
    }

    mutating func objectClosed() {
        open.removeLast()
    }

    /// Records the key of the innermost open object, given as the bytes between its quotes; false
    /// when the object already has it. `isPlain`: ASCII with no escapes.
    mutating func insert(_ quoted: UnsafeRawBufferPointer, isPlain: Bool) -> Bool {
        let key = isPlain ? Key.plain(quoted) : Key.decoded(Array(Self.unescape(quoted).nfc.utf8))
        return open[open.count - 1].insert(key).inserted
    }

    /// A key's text from its quoted bytes, whose escapes the guard has already checked. A lone
    /// surrogate becomes U+FFFD (the decoder refuses such a body later anyway).
    private static func unescape(_ quoted: UnsafeRawBufferPointer) -> String {
        var utf16: [UInt16] = []
        var bytes: [UInt8] = []
        var index = 0
        func flushBytes() {
            utf16 += String(decoding: bytes, as: UTF8.self).utf16
            bytes.removeAll()
        }
        while index < quoted.count {
            let byte = quoted[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < quoted.count else {
                bytes.append(byte)
                continue
            }
            let escaped = quoted[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u") where index + 4 <= quoted.count:
                flushBytes()
                utf16.append(
                    UInt16(String(decoding: UnsafeRawBufferPointer(rebasing: quoted[index..<index + 4]), as: UTF8.self), radix: 16)
                        ?? 0xFFFD)
                index += 4
            default: bytes.append(escaped)  // \" \\ \/
            }
        }
        flushBytes()
        return String(decoding: utf16, as: UTF16.self)
    }

    /// A key as its canonical bytes: the body's own for a plain key, the normalized UTF-8 of
    /// the decoded text for any other (which equals the plain spelling of an ASCII key).
    private enum Key: Hashable {
        case plain(UnsafeRawBufferPointer)
        case decoded([UInt8])

        private func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            switch self {
            case .plain(let bytes): body(bytes)
            case .decoded(let bytes): bytes.withUnsafeBytes(body)
            }
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.withBytes { left in rhs.withBytes { right in left.elementsEqual(right) } }
        }

        func hash(into hasher: inout Hasher) {
            withBytes { hasher.combine(bytes: $0) }
        }
    }
}
