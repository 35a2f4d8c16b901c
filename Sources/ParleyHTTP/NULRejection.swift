import ParleyCore

/// Refuses a request whose path or query encodes U+0000 (`%00`): PostgreSQL text cannot hold
/// it, and a C string would silently end there, so the server would act on a different value
/// than the one sent. (JSON bodies are checked when they are read.)
enum NULRejection {
    /// 400/400111 when the URI holds a raw NUL byte or the escape `%00`.
    static func check(_ uri: String) throws {
        if encodesNUL(uri) {
            throw ParleyError.invalidValue("request", "the path and query must not contain U+0000")
        }
    }

    /// A byte scan, since this runs on every request.
    static func encodesNUL(_ uri: String) -> Bool {
        var previous: (UInt8, UInt8) = (0xFF, 0xFF)
        for byte in uri.utf8 {
            if byte == 0 || (previous == (UInt8(ascii: "%"), UInt8(ascii: "0")) && byte == UInt8(ascii: "0")) { return true }
            previous = (previous.1, byte)
        }
        return false
    }
}
