import ParleyCore
import Testing

/// The tsquery a search's words become (API.md §13.5): words and CJK characters AND-ed, the CJK
/// runs kept whole for a substring test, nothing of the query taken as tsquery syntax.
@Suite struct MessageSearchTests {
    @Test func wordsAndCJKCharactersAreAndedAndCJKRunsKeptWhole() {
        #expect(MessageSearch(query: "running late").tsquery == "('running') & ('late')")
        #expect(MessageSearch(query: "학교").tsquery == "('학' & '교')")
        #expect(MessageSearch(query: "東京都 tower").tsquery == "('東' & '京' & '都') & ('tower')")
        #expect(MessageSearch(query: "ok東京").tsquery == "('ok') & ('東' & '京')")
        #expect(MessageSearch(query: "ok東京 tower 학교!").cjkRuns == ["東京", "학교"])
        #expect(MessageSearch(query: "running").cjkRuns.isEmpty)
    }

    @Test func syntaxInTheQueryIsOnlyText() {
        #expect(MessageSearch(query: "a & b | !c <-> 'd':*").tsquery == "('a') & ('b') & ('c') & ('d')")
        #expect(MessageSearch(query: "&|!").tsquery == "")
    }

    @Test func theCJKRangesAreTheMigrationsRanges() {
        for text in ["가", "ㄱ", "あ", "ア", "中", "ｱ"] { #expect(MessageSearch.isCJK(Character(text)), "\(text)") }
        for text in ["a", "é", "ß", "1", "ا"] { #expect(!MessageSearch.isCJK(Character(text)), "\(text)") }
    }
}
