import Testing

@testable import HTTPWire

/// `JSONSyntaxGuard`: strict JSON only (issue 10), and no object that repeats a key, however
/// the two are spelled (issue 29.15b), in linear time.
@Suite struct JSONSyntaxGuardTests {
    private func accepts(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in (try? JSONSyntaxGuard.check(UnsafeRawBufferPointer(bytes))) != nil }
    }

    @Test func theGuardAcceptsExactlyStrictJSON() throws {
        for valid in [
            #"{}"#, #"[]"#, #" { "a" : [ 1 , -0.5e+3 , true , false , null , "\u00e9\n" ] } "#, #""x""#, "0", #"{"a":{"b":[{}]}}"#
        ] {
            #expect(accepts(valid), "\(valid)")
        }
        for invalid in [
            "", "{", "[1,]", #"{"a":1,}"#, "{,}", "[,1]", #"{"a"}"#, #"{"a":}"#, #"{1:2}"#, "01", "1.", ".5", "-", "+1", "1e", "tru",
            #""\x""#, "\"\u{1}\"", #""\u12g4""#, "[] []", #"{"a":1}}"#, "[1}", #"{"a":1]"#, "\"open"
        ] {
            #expect(!accepts(invalid), "\(invalid)")
        }
    }

    @Test func keysAreComparedPerObjectAndByTheirText() {
        for valid in [
            #"{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}"#, #"{"a":1,"A":2,"a ":3}"#, #"{"\u00e9":1,"e":2}"#, #"[{"a":1},{"a":1}]"#
        ] {
            #expect(accepts(valid), "\(valid)")
        }
        for repeated in [
            #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"/":1,"\/":2}"#, #"{"x":{"k":1,"b":[],"k":2}}"#,
            #"{"\u00e9":1,"e\u0301":2}"#, "{\"\u{E9}\":1,\"e\u{301}\":2}", "{\"\u{E9}\":1,\"\\u00e9\":2}",
            // U+212A KELVIN SIGN is canonically the letter K.
            #"{"K":1,"\u212a":2}"#, "{\"\u{1F600}\":1,\"\\ud83d\\ude00\":2}", #"{"\n":1,"\u000a":2}"#
        ] {
            #expect(!accepts(repeated), "\(repeated)")
        }
    }

    /// 100,000 keys in one object, plain or needing normalization, pass in linear time.
    @Test func manyKeysAreCheckedInLinearTime() {
        for prefix in ["k", "\u{E9}"] {
            let body = "{" + (0..<100_000).map { "\"\(prefix)\($0)\":0" }.joined(separator: ",") + "}"
            let start = ContinuousClock.now
            #expect(accepts(body))
            #expect(!accepts(String(body.dropLast()) + ",\"\(prefix)99999\":1}"))
            #expect(ContinuousClock.now - start < .seconds(10), "\(prefix): \(ContinuousClock.now - start)")
        }
    }
}
