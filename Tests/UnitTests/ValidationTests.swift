import ParleyCore
import Testing

/// `Validation` (API.md §1.4, §2) and the refusal of control characters (issue 29.1).
@Suite struct ValidationTests {
    private func code(_ body: () throws -> Any) -> Int? {
        do {
            _ = try body()
            return nil
        } catch let error as ParleyError {
            return error.code
        } catch {
            return -1
        }
    }

    @Test(arguments: ["a", "Z9", "user_1-x.y@z:w+q", "...", ".a", String(repeating: "u", count: 80)])
    func userIDsOfTheAllowedAlphabetPass(_ id: String) throws {
        #expect(try Validation.userID(id) == id)
    }

    @Test(arguments: [
        ("", 400111), (".", 400111), ("..", 400111), ("a/b", 400111), ("a b", 400111), ("caf\u{E9}", 400111), ("%2e", 400111),
        ("a?b", 400111), ("a#b", 400111), ("a\u{0}", 400111), (String(repeating: "u", count: 81), 400110)
    ])
    func userIDsOutsideTheRulesAreRefused(_ id: String, _ expected: Int) {
        #expect(code { try Validation.userID(id) } == expected)
    }

    @Test func theFieldNameIsReported() {
        let error = #expect(throws: ParleyError.self) { try Validation.userID("a b", field: "inviter_id") }
        #expect(error?.message.hasPrefix("\"inviter_id\" is invalid") == true)
    }

    /// Length is in Unicode scalars, not grapheme clusters (a cluster can hold thousands of marks).
    @Test func textLengthCountsScalars() throws {
        let clusters = String(repeating: "e\u{301}", count: 3)  // 3 characters, 6 scalars
        #expect(clusters.count == 3)
        #expect(code { try Validation.text(clusters, field: "name", max: 5) } == 400110)
        #expect(try Validation.text(clusters, field: "name", max: 6) == clusters)
        let zalgo = "a" + String(repeating: "\u{300}", count: 1000)
        #expect(code { try Validation.text(zalgo, field: "name", max: 80) } == 400110)
        #expect(try Validation.text("\u{1F600}\u{1F600}", field: "name", max: 2) == "\u{1F600}\u{1F600}")
    }

    @Test func textHasAByteBudgetToo() {
        #expect(code { try Validation.text("\u{E9}\u{E9}", field: "f", max: 10, maxBytes: 3) } == 400110)
        #expect(code { try Validation.text("\u{E9}e", field: "f", max: 10, maxBytes: 3) } == nil)
    }

    @Test func controlCharactersOtherThanTabAndNewlinesAreRefused() {
        for allowed in ["tab\there", "line\nfeed", "carriage\r\nreturn", "del\u{7F}", "nbsp\u{A0}", "c1\u{85}"] {
            #expect(!allowed.hasRefusedControlCharacters, "\(allowed.debugDescription)")
            #expect(code { try Validation.text(allowed, field: "f", max: 100) } == nil)
        }
        for byte in (0x00..<0x20 as Range<UInt32>) where ![0x09, 0x0A, 0x0D].contains(byte) {
            let text = "a" + String(UnicodeScalar(byte)!) + "b"
            #expect(text.hasRefusedControlCharacters, "U+\(byte)")
            #expect(code { try Validation.text(text, field: "f", max: 100) } == 400111)
        }
    }

    @Test func metadataMapsAreLimitedInKeysKeyLengthAndValueLength() throws {
        let hundred = Dictionary(uniqueKeysWithValues: (0..<100).map { ("k\($0)", "v") })
        #expect(try Validation.metadata(hundred) == hundred)
        var tooMany = hundred
        tooMany["one-more"] = "v"
        #expect(code { try Validation.metadata(tooMany) } == 400203)
        #expect(code { try Validation.metadata(["": "v"]) } == 400111)
        #expect(code { try Validation.metadata([String(repeating: "k", count: 128): "v"]) } == nil)
        #expect(code { try Validation.metadata([String(repeating: "k", count: 129): "v"]) } == 400110)
        #expect(code { try Validation.metadata(["k": String(repeating: "v", count: 190)]) } == nil)
        let longValue = #expect(throws: ParleyError.self) { try Validation.metadata(["k": String(repeating: "v", count: 191)]) }
        #expect(longValue?.code == 400110 && longValue?.message.hasPrefix("\"metadata.k\"") == true)
        #expect(code { try Validation.metadata(["k": "bell\u{7}"]) } == 400111)
    }

    /// Bidi controls would let `invoice\u{202E}gnp.exe` pose as `invoiceexe.png`.
    @Test func fileNamesLoseBidiAndControlCharacters() throws {
        #expect(try Validation.fileName("invoice\u{202E}gnp.exe") == "invoicegnp.exe")
        #expect(try Validation.fileName("\u{2066}a\u{2067}b\u{2068}c\u{2069}\u{202A}\u{202B}\u{202C}\u{202D}.txt") == "abc.txt")
        #expect(try Validation.fileName("x\u{200E}y\u{200F}z\u{61C}") == "xyz")
        #expect(try Validation.fileName("tab\tnew\nline\u{0}\u{1F}.png") == "tabnewline.png")
        #expect(try Validation.fileName("r\u{E9}sum\u{E9} \u{1F4C4}.pdf") == "r\u{E9}sum\u{E9} \u{1F4C4}.pdf")
    }

    @Test func fileNamesAreLimitedAfterCleaning() throws {
        let name = String(repeating: "n", count: 255)
        #expect(try Validation.fileName(name) == name)
        #expect(code { try Validation.fileName(name + "n") } == 400110)
        // What is removed does not count.
        #expect(try Validation.fileName(name + "\u{202E}\u{0}") == name)
    }
}
