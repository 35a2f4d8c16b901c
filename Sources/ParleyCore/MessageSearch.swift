/// A message search (API.md §13.5).
public struct MessageSearch: Sendable {
    public var query: String
    public var channelURL: String?
    public var customType: String?
    public var senderID: String?
    public var from: Int64?
    public var to: Int64?
    public var byScore = false
    /// The text must hold the query as it is (letter case aside), not only its words.
    public var exactMatch = false
    /// The query in web search syntax: `"a phrase"`, `or`, `-word`.
    public var advanced = false

    public init(query: String) {
        self.query = query
    }

    /// The query as `to_tsquery` text: every word must match (stemmed by the configuration), and
    /// every character of a run of Chinese, Japanese or Korean ones (the stored text has each of
    /// them spaced out, see migration 0033); that the run stands in the text as it is, is
    /// `cjkRuns`' test. Not a phrase (`<->`): a phrase is checked again on each row by computing
    /// its text's tsvector anew, 13 µs a row, which made a Korean word 4× an English one over
    /// 10⁶ messages; a substring test on the text is a fraction of that. Every operand is quoted,
    /// so no character of the query is tsquery syntax.
    public var tsquery: String {
        var operands: [String] = []
        var word = ""
        var run: [Character] = []
        func flush() {
            if !word.isEmpty { operands.append(Self.quoted(word)) }
            if !run.isEmpty { operands.append(run.map { Self.quoted(String($0)) }.joined(separator: " & ")) }
            word = ""
            run = []
        }
        for character in query {
            if Self.isCJK(character) {
                if !word.isEmpty { flush() }
                run.append(character)
            } else if character.isLetter || character.isNumber {
                if !run.isEmpty { flush() }
                word.append(character)
            } else {
                flush()
            }
        }
        flush()
        return operands.map { "(\($0))" }.joined(separator: " & ")
    }

    /// The index terms the query asks for (issue 50.1: each is a posting list the index reads
    /// whole): each word, and each Chinese, Japanese or Korean character (`tsquery` makes each one
    /// an operand). In web search syntax `or` counts as a word too.
    public var termCount: Int {
        var count = 0
        var inWord = false
        for character in query {
            if Self.isCJK(character) {
                count += 1
                inWord = false
            } else if character.isLetter || character.isNumber {
                if !inWord { count += 1 }
                inWord = true
            } else {
                inWord = false
            }
        }
        return count
    }

    /// The query's runs of Chinese, Japanese and Korean characters, each of which the text must
    /// hold as it is.
    public var cjkRuns: [String] {
        var runs: [String] = []
        var run = ""
        for character in query {
            if Self.isCJK(character) {
                run.append(character)
            } else if !run.isEmpty {
                runs.append(run)
                run = ""
            }
        }
        return run.isEmpty ? runs : runs + [run]
    }

    /// `'text'`, its quotes doubled and backslashes escaped: one operand, whatever it holds.
    static func quoted(_ text: String) -> String {
        var quoted = "'"
        for character in text {
            if character == "'" || character == "\\" { quoted.append(character) }
            quoted.append(character)
        }
        return quoted + "'"
    }

    /// The characters migration 0033 spaces out: Hangul, kana, CJK ideographs.
    public static func isCJK(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x1100...0x11FF, 0x3040...0x30FF, 0x3130...0x318F, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF,
            0xFF66...0xFF9F:
            return true
        default:
            return false
        }
    }
}
