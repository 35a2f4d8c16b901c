import ByteCoding
import ParleyCore

/// RFC 3986 percent-decoding of UTF-8 text, without Foundation.
///
/// Foundation's `removingPercentEncoding` goes through CFString and hands back a bridged string
/// that is slow to read again; every path capture is decoded, so this runs on every request.
public enum PercentDecoding {
    /// The decoded text; nil when an escape is malformed or the bytes are not UTF-8 (the same
    /// cases as Foundation's).
    public static func decode(_ text: String) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Hex.value), let low = iterator.next().flatMap(Hex.value) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
