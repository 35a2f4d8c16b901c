import ParleyCore

/// Refuses a request whose path or query holds or encodes a control character that text may not
/// hold (`String.hasRefusedControlCharacters`: C0 but tab, line feed and carriage return). U+0000
/// above all: PostgreSQL text cannot hold it, and a C string would silently end there, so the
/// server would act on a different value than the one sent. (JSON bodies and multipart fields
/// are checked when they are read.)
public enum ControlCharacterRejection {
    /// 400/400111 when the URI holds a raw control byte or an escape of one (`%00`–`%1F`, but
    /// `%09`, `%0A`, `%0D`).
    public static func check(_ uri: String) throws {
        if encodesControlCharacter(uri) {
            throw ParleyError.invalidValue(
                "request", "the path and query must not contain control characters other than tab, line feed and carriage return")
        }
    }

    /// A byte scan, since this runs on every request.
    public static func encodesControlCharacter(_ uri: String) -> Bool {
        var previous: (UInt8, UInt8) = (0xFF, 0xFF)
        for byte in uri.utf8 {
            if byte < 0x20 { return true }
            if previous.0 == UInt8(ascii: "%") {
                switch (previous.1, byte) {
                case (UInt8(ascii: "0"), UInt8(ascii: "9")), (UInt8(ascii: "0"), UInt8(ascii: "a")), (UInt8(ascii: "0"), UInt8(ascii: "A")),
                    (UInt8(ascii: "0"), UInt8(ascii: "d")), (UInt8(ascii: "0"), UInt8(ascii: "D")):
                    break
                case (UInt8(ascii: "0"), let digit), (UInt8(ascii: "1"), let digit):
                    if digit.isHexDigit { return true }
                default: break
                }
            }
            previous = (previous.1, byte)
        }
        return false
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
