import ParleyCore
import Testing

/// `MetadataRules` (API.md §2.2, §3.10) over rows held in memory: which changes are refused, with
/// which code, and the 100-key limit.
@Suite struct MetadataRulesTests {
    /// One owner's metadata, as a repository would hold it.
    final class Rows: MetadataRows {
        var map: [String: String]
        var upserts = 0

        init(_ map: [String: String] = [:]) {
            self.map = map
        }

        func all() throws -> [String: String] { map }
        func value(of key: String) throws -> String? { map[key] }
        func existing(among keys: [String]) throws -> Set<String> { Set(keys.filter { map[$0] != nil }) }
        func upsert(_ map: [String: String]) throws {
            upserts += 1
            self.map.merge(map) { _, new in new }
        }
        func delete(_ key: String) throws -> Bool { map.removeValue(forKey: key) != nil }
        func deleteAll() throws { map = [:] }
        func count() throws -> Int { map.count }
    }

    private func keys(_ count: Int) -> [String: String] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", "v") })
    }

    @Test func addingAnExistingKeyIs409AndWritesNothing() {
        let rows = Rows(["b": "1", "c": "2"])
        let error = #expect(throws: ParleyError.self) { try MetadataRules.add(["c": "x", "b": "y", "a": "z"], to: rows) }
        #expect(error?.status == 409 && error?.code == 400202)
        // The first existing key in sorted order is named, whatever the map's order.
        #expect(error?.message == "Metadata key \"b\" already exists.")
        #expect(rows.upserts == 0 && rows.map == ["b": "1", "c": "2"])
    }

    @Test func addingNewKeysStoresThem() throws {
        let rows = Rows(["a": "1"])
        try MetadataRules.add(["b": "2", "c": "3"], to: rows)
        #expect(rows.map == ["a": "1", "b": "2", "c": "3"])
    }

    @Test func theHundredthKeyFitsAndTheHundredAndFirstDoesNot() throws {
        try MetadataRules.add(["last": "v"], to: Rows(keys(99)))
        let error = #expect(throws: ParleyError.self) { try MetadataRules.add(["x": "v", "y": "v"], to: Rows(keys(99))) }
        #expect(error?.status == 409 && error?.code == 400203)
        let viaSet = #expect(throws: ParleyError.self) { try MetadataRules.set(["new": "v"], upsert: true, in: Rows(keys(100))) }
        #expect(viaSet?.code == 400203)
    }

    /// Replacing values at the limit adds no key, so it is allowed.
    @Test func replacingValuesAtTheLimitIsAllowed() throws {
        let rows = Rows(keys(100))
        try MetadataRules.set(["k0": "changed", "k99": "changed"], upsert: false, in: rows)
        #expect(rows.map.count == 100 && rows.map["k0"] == "changed" && rows.map["k99"] == "changed")
    }

    @Test func settingWithoutUpsertNeedsEveryKeyToExist() {
        let rows = Rows(["a": "1"])
        let error = #expect(throws: ParleyError.self) { try MetadataRules.set(["a": "2", "z": "1", "m": "1"], upsert: false, in: rows) }
        #expect(error?.status == 404 && error?.code == 400201)
        #expect(error?.message == "Metadata key \"m\" not found.")
        #expect(rows.upserts == 0 && rows.map == ["a": "1"])
    }

    @Test func settingWithUpsertCreatesAndReplaces() throws {
        let rows = Rows(["a": "1"])
        try MetadataRules.set(["a": "2", "b": "3"], upsert: true, in: rows)
        #expect(rows.map == ["a": "2", "b": "3"])
    }

    @Test func removingAndReadingAMissingKeyIs404() throws {
        let rows = Rows(["a": "1"])
        #expect(throws: ParleyError.notFound("Metadata key \"b\" not found.")) { try MetadataRules.remove("b", from: rows) }
        #expect(throws: ParleyError.notFound("Metadata key \"b\" not found.")) { try MetadataRules.value(of: "b", in: rows) }
        #expect(try MetadataRules.value(of: "a", in: rows) == "1")
        try MetadataRules.remove("a", from: rows)
        #expect(rows.map.isEmpty)
        #expect(throws: ParleyError.self) { try MetadataRules.value(of: "a", in: rows) }
    }
}
