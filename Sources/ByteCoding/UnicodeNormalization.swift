import Foundation

extension String {
    /// The text in Unicode normalization form C. Keys are stored and compared in it: Swift
    /// compares strings by canonical equivalence, PostgreSQL by their bytes, so "é" as U+00E9 and
    /// as "e" + U+0301 were two rows that read back as one key (and one `[String: String]` entry).
    /// ASCII, which no normalization changes, is returned as it is without a look at Foundation.
    public var nfc: String {
        utf8.allSatisfy { $0 < 0x80 } ? self : precomposedStringWithCanonicalMapping
    }
}
