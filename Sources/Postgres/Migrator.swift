import Foundation
import Logging

/// One `migrations/NNNN_description.sql` file.
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String
}

/// What the database holds compared with the migration files.
public struct MigrationStatus: Sendable, Equatable {
    public let applied: [Int]
    public let pending: [Migration]
    /// Applied migrations whose file has changed since; the database must not be served.
    public let changed: [Int]

    public var isCurrent: Bool { pending.isEmpty && changed.isEmpty }
}

/// Applies `NNNN_*.sql` files in order, each once and in its own transaction, recording each
/// with a checksum. A changed applied migration is an error, and concurrent runners serialise on
/// a session-level advisory lock.
public struct Migrator: Sendable {
    public let directory: URL
    private let logger: Logger

    /// An arbitrary constant, the same for every Parley instance, naming the migration lock.
    static let advisoryLockKey: Int64 = 0x5041_524C_4559  // "PARLEY"

    public init(directory: URL, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// Reads the migration files, sorted by version; refuses malformed names and duplicate versions.
    public func loadMigrations() throws -> [Migration] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }
        var migrations: [Migration] = []
        for name in names {
            guard let underscore = name.firstIndex(of: "_"), let version = Int(name[..<underscore]) else {
                throw PostgresError(kind: .usage, message: "migration file \(name) is not named NNNN_description.sql")
            }
            let sql = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            migrations.append(Migration(version: version, name: name, sql: sql))
        }
        migrations.sort { $0.version < $1.version }
        for (previous, next) in zip(migrations, migrations.dropFirst()) where previous.version == next.version {
            throw PostgresError(kind: .usage, message: "migrations \(previous.name) and \(next.name) share a version")
        }
        return migrations
    }

    /// Compares the files with what the database recorded, without changing anything.
    public func status(on connection: PostgresConnection) throws -> MigrationStatus {
        let migrations = try loadMigrations()
        let exists = try connection.query("SELECT to_regclass('parley_schema_migrations') IS NOT NULL AS present")
        let recorded: [Int: String] = try exists[0].decode("present", as: Bool.self) ? appliedChecksums(connection) : [:]
        var changed: [Int] = []
        for migration in migrations {
            if let checksum = recorded[migration.version], checksum != (try self.checksum(of: migration, on: connection)) {
                changed.append(migration.version)
            }
        }
        return MigrationStatus(
            applied: recorded.keys.sorted(),
            pending: migrations.filter { recorded[$0.version] == nil },
            changed: changed
        )
    }

    /// Applies every pending migration; returns the versions applied by this call.
    @discardableResult
    public func migrate(on connection: PostgresConnection) throws -> [Int] {
        let migrations = try loadMigrations()
        try connection.query("SELECT pg_advisory_lock($1)", [Self.advisoryLockKey])
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1)", [Self.advisoryLockKey]) }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS parley_schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        let recorded = try appliedChecksums(connection)
        var applied: [Int] = []
        for migration in migrations {
            let checksum = try self.checksum(of: migration, on: connection)
            if let recordedChecksum = recorded[migration.version] {
                guard recordedChecksum == checksum else {
                    throw PostgresError(
                        kind: .usage,
                        message: "migration \(migration.name) was changed after it was applied; add a new migration instead"
                    )
                }
                continue
            }
            try connection.transaction { connection in
                try connection.execute(migration.sql)
                try connection.query(
                    "INSERT INTO parley_schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                    [migration.version, migration.name, checksum]
                )
            }
            logger.info("applied migration", metadata: ["migration": "\(migration.name)"])
            applied.append(migration.version)
        }
        return applied
    }

    private func appliedChecksums(_ connection: PostgresConnection) throws -> [Int: String] {
        let rows = try connection.query("SELECT version, checksum FROM parley_schema_migrations")
        var checksums: [Int: String] = [:]
        for row in rows.map({ $0 }) {
            checksums[try row.decode("version")] = try row.decode("checksum", as: String.self)
        }
        return checksums
    }

    /// SHA-256 of the file's text, computed by the server so that this layer needs no crypto library.
    private func checksum(of migration: Migration, on connection: PostgresConnection) throws -> String {
        let result = try connection.query("SELECT encode(sha256(convert_to($1, 'UTF8')), 'hex') AS sum", [migration.sql])
        return try result[0].decode("sum")
    }
}
