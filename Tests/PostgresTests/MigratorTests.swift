import Foundation
import Postgres
import Testing

@Suite struct MigratorTests {
    let files = [
        "0001_people.sql": "CREATE TABLE people (id int PRIMARY KEY, name text NOT NULL);",
        "0002_pets.sql": "CREATE TABLE pets (id int PRIMARY KEY, owner int REFERENCES people (id));"
    ]

    @Test func freshDatabaseGetsEveryMigrationInOrderOnce() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let folder = try MigrationFolder(files)
        let connection = try database.connect()
        #expect(try folder.migrator.status(on: connection).pending.map(\.version) == [1, 2])
        #expect(try folder.migrator.migrate(on: connection) == [1, 2])
        #expect(try folder.migrator.status(on: connection).isCurrent)
        try connection.query("INSERT INTO people VALUES (1, 'a')")
        try connection.query("INSERT INTO pets VALUES (1, 1)")
        let rows = try connection.query("SELECT name FROM parley_schema_migrations ORDER BY version")
        #expect(try rows.map { try $0.decode("name", as: String.self) } == ["0001_people.sql", "0002_pets.sql"])
    }

    @Test func rerunAppliesNothingAndNewFilesAreAppliedLater() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let folder = try MigrationFolder(files)
        let connection = try database.connect()
        try folder.migrator.migrate(on: connection)
        #expect(try folder.migrator.migrate(on: connection) == [])
        try folder.write("0003_toys.sql", "CREATE TABLE toys (id int);")
        #expect(try folder.migrator.status(on: connection).pending.map(\.version) == [3])
        #expect(try folder.migrator.migrate(on: connection) == [3])
    }

    @Test func changedAppliedMigrationIsRefused() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let folder = try MigrationFolder(files)
        let connection = try database.connect()
        try folder.migrator.migrate(on: connection)
        try folder.write("0001_people.sql", "CREATE TABLE people (id bigint PRIMARY KEY);")
        #expect(try folder.migrator.status(on: connection).changed == [1])
        #expect(throws: PostgresError.self) { try folder.migrator.migrate(on: connection) }
    }

    @Test func failingMigrationLeavesNothingBehind() throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        let folder = try MigrationFolder([
            "0001_ok.sql": "CREATE TABLE ok (id int);",
            "0002_broken.sql": "CREATE TABLE half (id int); SELECT * FROM missing_table;"
        ])
        let connection = try database.connect()
        #expect(throws: PostgresError.self) { try folder.migrator.migrate(on: connection) }
        #expect(try folder.migrator.status(on: connection).pending.map(\.version) == [2])
        let half = try connection.query("SELECT to_regclass('half') IS NULL AS gone")
        #expect(try half[0].decode("gone", as: Bool.self))
    }

    @Test func malformedFileNamesAreRefused() throws {
        let folder = try MigrationFolder(["first.sql": "SELECT 1;"])
        #expect(throws: PostgresError.self) { try folder.migrator.loadMigrations() }
        let duplicate = try MigrationFolder(["0001_a.sql": "SELECT 1;", "0001_b.sql": "SELECT 1;"])
        #expect(throws: PostgresError.self) { try duplicate.migrator.loadMigrations() }
    }

    @Test func twoRunnersAtOnceApplyEachMigrationExactlyOnce() async throws {
        let database = try TestDatabase.create()
        defer { database.drop() }
        // The sleep holds the first runner inside its migration while the second one waits.
        let folder = try MigrationFolder([
            "0001_slow.sql": "SELECT pg_sleep(0.3); CREATE TABLE slow (id int);",
            "0002_next.sql": "CREATE TABLE next (id int);"
        ])
        let migrator = folder.migrator
        let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<2 {
                group.addTask {
                    let connection = try database.connect()
                    return try migrator.migrate(on: connection)
                }
            }
            return try await group.reduce(into: [[Int]]()) { $0.append($1) }
        }
        #expect(applied.flatMap { $0 }.sorted() == [1, 2])
        let count = try database.connect().query("SELECT count(*) AS n FROM parley_schema_migrations")
        #expect(try count[0].decode("n", as: Int.self) == 2)
    }
}
