import ByteCoding
import Foundation
import Testing

/// `JSONWriter`: what it writes is JSON (RFC 8259) that reads back as the values written.
@Suite struct JSONWriterTests {
    private func written(_ body: (inout JSONWriter) -> Void) -> String {
        var json = JSONWriter()
        body(&json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    private func quoted(_ text: String) -> String {
        written { $0.string(text) }
    }

    /// Every C0 control character is escaped: tab, line feed and carriage return by name, the others
    /// as `\u00xx` (RFC 8259 §7 allows no raw control character in a string).
    @Test func everyControlCharacterIsEscaped() {
        let named: [UInt32: String] = [0x09: #"\t"#, 0x0A: #"\n"#, 0x0D: #"\r"#]
        for code in UInt32(0)..<0x20 {
            let text = String(UnicodeScalar(code)!)
            let expected = named[code] ?? String(format: "\\u%04x", code)
            #expect(quoted(text) == "\"\(expected)\"", "U+\(String(code, radix: 16))")
            #expect(quoted("a" + text + "b") == "\"a\(expected)b\"")
        }
    }

    @Test func quotesAndBackslashesAreEscapedAndNothingElse() {
        #expect(quoted(#"say "hi""#) == #""say \"hi\"""#)
        #expect(quoted(#"C:\dir\"#) == #""C:\\dir\\""#)
        #expect(quoted(#"\""#) == #""\\\"""#)
        // The solidus and DEL may stand as they are.
        #expect(quoted("a/b\u{7F}") == "\"a/b\u{7F}\"")
        #expect(quoted("") == #""""#)
    }

    /// Non-ASCII text is written as its UTF-8 bytes, not as escapes.
    @Test func nonASCIIPassesThroughAsUTF8() {
        for text in ["caf\u{E9}", "e\u{301}", "日本語", "\u{1F600}", "\u{1F1EB}\u{1F1F7}", "\u{2028}\u{2029}", "\u{FEFF}", "\u{10FFFF}"] {
            var json = JSONWriter()
            json.string(text)
            #expect(json.bytes == [UInt8(ascii: "\"")] + Array(text.utf8) + [UInt8(ascii: "\"")], "\(text.debugDescription)")
        }
    }

    /// A Swift string cannot hold a lone surrogate: decoding one yields U+FFFD, written as valid UTF-8.
    /// A valid pair is one scalar and is written as its 4-byte UTF-8.
    @Test func surrogatesAreWrittenAsValidUTF8() throws {
        let lone = String(decoding: [0x61, 0xD800, 0x62] as [UInt16], as: UTF16.self)
        var json = JSONWriter()
        json.string(lone)
        #expect(json.bytes == Array("\"a\u{FFFD}b\"".utf8))
        let pair = String(decoding: [0xD83D, 0xDE00] as [UInt16], as: UTF16.self)
        #expect(quoted(pair).utf8.elementsEqual([0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22]))
        #expect(try reread(quoted(pair)) as? String == "\u{1F600}")
    }

    @Test func numbersBooleansAndNull() {
        #expect(written { $0.int(0) } == "0")
        #expect(written { $0.int(-1) } == "-1")
        #expect(written { $0.int(.max) } == "9223372036854775807")
        #expect(written { $0.int(.min) } == "-9223372036854775808")
        #expect(written { $0.bool(true) } == "true")
        #expect(written { $0.bool(false) } == "false")
        #expect(written { $0.null() } == "null")
    }

    @Test func commasAreSetBetweenMembersAndElementsAtEveryDepth() {
        let text = written { json in
            json.object { json in
                json.key("a")
                json.array { json in
                    json.int(1)
                    json.object { json in json.field("b", "x") }
                    json.array { _ in }
                    json.null()
                }
                json.key("c")
                json.object { _ in }
                json.field("d", true)
                json.field("e", Int64(-5))
                json.field("f", 7)
                json.member("g\"h", "i")
                json.member("j", Int64(2))
            }
        }
        #expect(text == #"{"a":[1,{"b":"x"},[],null],"c":{},"d":true,"e":-5,"f":7,"g\"h":"i","j":2}"#)
        #expect(
            written { json in
                json.array { json in
                    json.array { $0.string("x") }
                    json.array { $0.string("y") }
                }
            } == #"[["x"],["y"]]"#)
    }

    @Test func stringMapsAreWrittenInKeyOrderAndEscaped() {
        let text = written { json in
            json.object { json in json.field("metadata", ["b": "2", "a\n": "1", "\u{E9}": "\"3\""]) }
        }
        #expect(text == "{\"metadata\":{\"a\\n\":\"1\",\"b\":\"2\",\"\u{E9}\":\"\\\"3\\\"\"}}")
        #expect(written { StringMapJSON(map: [:]).write(to: &$0) } == "{}")
    }

    /// What a round writes, as `JSONDecoder` reads it back.
    private struct Round: Decodable {
        let strings: [String]
        let numbers: [Int64]
        let members: [String: String]
    }

    /// Varied strings, as values and as member names, and numbers read back as the same values,
    /// strings compared scalar by scalar (`==` on strings would forgive normalization).
    ///
    /// `JSONSerialization` must accept every output and read it back alike, except for strings
    /// holding U+FEFF: swift-corelibs-foundation's `JSONSerialization` drops a U+FEFF that directly
    /// follows an escape sequence (`"\n\u{FEFF}x"` reads back as `"\nx"`). `JSONDecoder` has no
    /// such fault, so every string is also compared as it reads them.
    @Test func outputReadsBackAsTheSameValues() throws {
        var random = SplitMix64(seed: 0x5EED)
        let alphabet: [UnicodeScalar] =
            (0..<0x20).map { UnicodeScalar(UInt8($0)) } + ["\"", "\\", "/", "a", "Z", "0", " ", "\u{7F}", "\u{80}", "\u{E9}", "\u{301}"]
            + ["\u{FFFD}", "\u{FEFF}", "\u{2028}", "\u{10FFFF}", "\u{1F600}", "\u{1F1EB}", "\u{65E5}", "\u{D7FF}", "\u{E000}"]
        for round in 0..<300 {
            let strings = (0..<Int(random.next() % 6)).map { _ in
                var view = String.UnicodeScalarView()
                for _ in 0..<Int(random.next() % 24) { view.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
                return String(view)
            }
            let numbers = strings.map { _ in Int64(bitPattern: random.next()) }
            let text = written { json in
                json.object { json in
                    json.key("strings")
                    json.array { json in for string in strings { json.string(string) } }
                    json.key("numbers")
                    json.array { json in for number in numbers { json.int(number) } }
                    json.key("members")
                    json.object { json in for (index, string) in strings.enumerated() { json.member("\(index)\(string)", string) } }
                }
            }
            let object = try #require(try reread(text) as? [String: Any], "round \(round): \(text.debugDescription)")
            let serialized = try #require(object["strings"] as? [String])
            #expect(serialized.count == strings.count)
            for (read, string) in zip(serialized, strings) where !string.unicodeScalars.contains("\u{FEFF}") {
                #expect(scalars(read) == scalars(string), "round \(round)")
            }
            #expect((object["numbers"] as? [NSNumber])?.map(\.int64Value) == numbers, "round \(round)")
            let decoded = try JSONDecoder().decode(Round.self, from: Data(text.utf8))
            #expect(decoded.strings.map(scalars) == strings.map(scalars), "round \(round)")
            #expect(decoded.numbers == numbers)
            let members = Dictionary(uniqueKeysWithValues: decoded.members.map { (scalars($0.key), scalars($0.value)) })
            let expected = Dictionary(
                uniqueKeysWithValues: strings.enumerated().map { (scalars("\($0.offset)\($0.element)"), scalars($0.element)) })
            #expect(members == expected, "round \(round)")
        }
    }

    private func scalars(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value)
    }

    private func reread(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }
}

/// A small seeded generator, so that a failing round can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
