import Foundation
import ParleyCore
import Postgres

/// SQL of secondary API tokens and the API tokens' IP allow-list (migration 0039, API.md §14.7).
public struct ApplicationSecurityRepository {
    let connection: PostgresConnection

    public func insertToken(selector: String, secretHash: Data, now: Int64) throws {
        try connection.query("INSERT INTO api_tokens (selector, secret_hash, created_at) VALUES ($1, $2, $3)", [selector, secretHash, now])
    }

    /// Every secondary token: its selector and when it was made, oldest first.
    public func tokens() throws -> [(selector: String, createdAt: Int64)] {
        try connection.query("SELECT selector, created_at FROM api_tokens ORDER BY created_at, selector").map {
            (try $0.decode("selector"), try $0.decode("created_at"))
        }
    }

    public func token(selector: String) throws -> Int64? {
        try connection.query("SELECT created_at FROM api_tokens WHERE selector = $1", [selector]).first?.decode("created_at")
    }

    /// Revokes a token; false when there was none.
    public func deleteToken(selector: String) throws -> Bool {
        try connection.query("DELETE FROM api_tokens WHERE selector = $1", [selector]).affectedRows == 1
    }

    /// The stored hash of a secondary token's secret, for `Authenticator` (pipelined).
    public static func tokenHash(selector: String) -> Lookup<Data?> {
        Lookup(query: Query("SELECT secret_hash FROM api_tokens WHERE selector = $1", [selector]) { try $0.first?.decode("secret_hash") })
    }

    /// The allow-list, as stored (each a canonical address or CIDR range).
    public static var allowList: Lookup<[String]> {
        Lookup(query: Query("SELECT network FROM api_allowlist ORDER BY network", []) { try $0.map { try $0.decode("network") } })
    }

    public func allow(_ networks: [String], now: Int64) throws {
        try connection.query(
            "INSERT INTO api_allowlist (network, created_at) SELECT unnest($1::text[]), $2 ON CONFLICT DO NOTHING", [networks, now])
    }

    public func disallow(_ networks: [String]) throws {
        try connection.query("DELETE FROM api_allowlist WHERE network = ANY($1::text[])", [networks])
    }
}

extension ApplicationSecurityRepository {
    public func allowListCount() throws -> Int {
        try connection.query("SELECT count(*) AS n FROM api_allowlist")[0].decode("n")
    }
}
