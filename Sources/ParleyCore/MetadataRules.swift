/// One owner's metadata rows (a user's or a channel's), as the rules below need them; the
/// repositories provide them.
public protocol MetadataRows {
    func all() throws -> [String: String]
    func value(of key: String) throws -> String?
    /// The keys among `keys` that exist.
    func existing(among keys: [String]) throws -> Set<String>
    /// Inserts or replaces the given keys.
    func upsert(_ map: [String: String]) throws
    /// Deletes one key; false when it did not exist.
    func delete(_ key: String) throws -> Bool
    func deleteAll() throws
    func count() throws -> Int
}

/// The rules of string-map metadata (API.md §2.2, §3.10): which changes are refused and the key
/// limit. The caller holds the owner's row lock, so concurrent writers cannot overrun the limit
/// together.
public enum MetadataRules {
    /// Adds new keys: 409/400202 when one exists already, 409/400203 past the key limit.
    public static func add(_ map: [String: String], to rows: some MetadataRows) throws {
        if let key = try rows.existing(among: Array(map.keys)).sorted().first {
            throw ParleyError.alreadyExists("Metadata key \"\(key)\" already exists.")
        }
        try rows.upsert(map)
        try requireWithinLimit(rows)
    }

    /// Sets the given keys; with `upsert` false every key must exist already (else 404/400201).
    public static func set(_ map: [String: String], upsert: Bool, in rows: some MetadataRows) throws {
        if !upsert {
            let existing = try rows.existing(among: Array(map.keys))
            if let missing = map.keys.sorted().first(where: { !existing.contains($0) }) { throw keyNotFound(missing) }
        }
        try rows.upsert(map)
        try requireWithinLimit(rows)
    }

    /// Deletes one key; 404/400201 when it does not exist.
    public static func remove(_ key: String, from rows: some MetadataRows) throws {
        guard try rows.delete(key) else { throw keyNotFound(key) }
    }

    /// The key's value; 404/400201 when it does not exist.
    public static func value(of key: String, in rows: some MetadataRows) throws -> String {
        guard let value = try rows.value(of: key) else { throw keyNotFound(key) }
        return value
    }

    private static func requireWithinLimit(_ rows: some MetadataRows) throws {
        guard try rows.count() <= Validation.maxMetadataKeys else {
            throw ParleyError.tooMany("At most \(Validation.maxMetadataKeys) metadata keys are allowed.")
        }
    }

    static func keyNotFound(_ key: String) -> ParleyError {
        ParleyError.notFound("Metadata key \"\(key)\" not found.")
    }
}
