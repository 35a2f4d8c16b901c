import Testing

@testable import ParleyHTTP
@testable import ParleyLinkPreviews

/// The cheap checks in front of costlier parsing on the send path (issue 32): they may let a
/// text through that the parser then refuses, never the other way round.
@Suite struct RequestPrefilterTests {
    @Test(arguments: [
        ("hello 1", false), ("see https://example.com/a", true), ("http://x", true), ("a:/ /b", false), (":/:/", false),
        ("::://x", true), ("ftp://x", true), ("한국어 https://例え.jp", true), ("", false)
    ])
    func aLinkNeedsASchemeSeparator(text: String, expected: Bool) {
        #expect(LinkPreviewer.containsSchemeSeparator(text) == expected)
    }

    @Test(
        arguments: [
            ("application/json", nil), ("application/json; charset=utf-8", nil), ("multipart/form-data; boundary=abc", "abc"),
            ("  Multipart/Form-Data; boundary=abc", "abc"), ("\tMULTIPART/FORM-DATA;boundary=\"q z\"", "q z"),
            ("multipart/mixed; boundary=abc", nil), ("multipart", nil), ("", nil)
        ] as [(String, String?)])
    func onlyAMultipartFormHasABoundary(contentType: String, expected: String?) {
        #expect(MultipartFormReader.boundary(of: contentType) == expected)
    }
}
