import Testing

@testable import ParleyTranslation

/// `ProtectedText` (API.md §9.3): mentions, URLs and code never reach a translation provider,
/// and the message is put back together around the translated pieces.
@Suite struct ProtectedTextTests {
    /// The text with each piece replaced by `<piece>` in capitals, as a stand-in translation.
    private func shouted(_ text: String) -> String {
        let protected = ProtectedText(text)
        return protected.restored(protected.pieces.map { "<\($0.uppercased())>" })
    }

    @Test func mentionsOfBothFormsAreKept() {
        #expect(ProtectedText("hello @{user_1} and @bob.smith-2 there").pieces == ["hello", "and", "there"])
        #expect(shouted("hello @{user_1} and @bob.smith-2 there") == "<HELLO> @{user_1} <AND> @bob.smith-2 <THERE>")
    }

    /// An address's `@` follows a word character: it is no mention, and is translated with its text.
    @Test func anEmailAddressIsNotAMention() {
        #expect(ProtectedText("write to bob@example.com today").pieces == ["write to bob@example.com today"])
    }

    @Test func urlsAreKeptWholeUpToWhitespaceOrAQuote() {
        #expect(shouted("see https://example.com/a?b=c&d=e#f now") == "<SEE> https://example.com/a?b=c&d=e#f <NOW>")
        #expect(shouted("or http://x.org/path and www.example.org/page") == "<OR> http://x.org/path <AND> www.example.org/page")
        #expect(shouted("link <https://ex.com/p>here") == "<LINK <>https://ex.com/p<>HERE>")
        #expect(shouted("say \"https://ex.com/q\" ok") == "<SAY \">https://ex.com/q<\" OK>")
        // A scheme alone in a word is not a link: "xhttps://" has no word boundary before "http".
        #expect(ProtectedText("xhttps://a.b c").pieces == ["xhttps://a.b c"])
    }

    @Test func codeSpansAndFencesAreKept() {
        #expect(shouted("run `make all` then stop") == "<RUN> `make all` <THEN STOP>")
        let fenced = "before\n```\nlet x = 1\nprint(x)\n```\nafter"
        #expect(shouted(fenced) == "<BEFORE>\n```\nlet x = 1\nprint(x)\n```\n<AFTER>")
        // A code span does not cross a line; an unclosed backtick protects nothing.
        #expect(ProtectedText("a `b\nc` d").pieces == ["a `b\nc` d"])
        #expect(ProtectedText("it's `open").pieces == ["it's `open"])
    }

    /// Fences, then code spans, then URLs, then mentions: what is inside code stays code.
    @Test func earlierKindsWinWhereTheyOverlap() {
        #expect(shouted("x `@bob https://a.b` y") == "<X> `@bob https://a.b` <Y>")
        #expect(shouted("x ```a `b` @c``` y") == "<X> ```a `b` @c``` <Y>")
        #expect(shouted("go https://a.b/@bob ok") == "<GO> https://a.b/@bob <OK>")
    }

    /// Providers trim or add whitespace; a piece's own surrounding whitespace is kept aside.
    @Test func whitespaceAroundPiecesIsKeptAsItWas() {
        let protected = ProtectedText("  hello  \n@bob\t world \n")
        #expect(protected.pieces == ["hello", "world"])
        #expect(protected.parts.first == .text(lead: "  ", core: "hello", trail: "  \n"))
        #expect(protected.restored([" hola ", "mundo"]) == "   hola   \n@bob\t mundo \n")
    }

    /// Stretches with no letter (punctuation, digits, emoji) are not worth a provider call.
    @Test func stretchesWithoutLettersAreNotSent() {
        #expect(ProtectedText("@bob: 👍 123!!! @carol").pieces.isEmpty)
        #expect(ProtectedText("").pieces.isEmpty)
        #expect(ProtectedText("😀😀 2024").parts == [.kept("😀😀 2024")])
        #expect(ProtectedText("ok 👍").pieces == ["ok 👍"])
        #expect(ProtectedText("日本語 @bob").pieces == ["日本語"])
    }

    /// With fewer translations than pieces, the rest stay as they were.
    @Test func missingTranslationsLeaveTheOriginal() {
        let protected = ProtectedText("one @a two @b three")
        #expect(protected.restored(["uno"]) == "uno @a two @b three")
        #expect(protected.restored([]) == "one @a two @b three")
    }

    /// Given its own pieces back, any message is rebuilt exactly, whatever UTF-16 offsets it has.
    @Test func restoringThePiecesRebuildsTheMessageExactly() {
        let samples = [
            "plain text", "😀 hi @bob there 🇫🇷 https://ex.com/ü?q=✓ end", "e\u{301}t\u{E9} `code` caf\u{E9}", "@{a} @{b}",
            "https://only.link",
            "\n\n  spaced \t", "```\nfence only\n```", "mixed @{x}www.a.b`c`@d text", "Zeile\r\nzwei @{ü}", "a\u{0}b @c"
        ]
        for text in samples {
            let protected = ProtectedText(text)
            #expect(protected.restored(protected.pieces) == text, "\(text.debugDescription)")
            #expect(protected.restored([]) == text)
        }
    }
}
