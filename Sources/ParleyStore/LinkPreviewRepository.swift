import ParleyCore
import Postgres

/// SQL for `link_previews`, the hour-long cache of previews by URL (API.md §11.1).
public struct LinkPreviewRepository {
    let connection: PostgresConnection

    /// The cached preview of `url` made after `since`: `.some(nil)` for a cached failure, nil
    /// when there is none.
    public func cached(_ url: String, since: Int64) throws -> OGTag?? {
        guard
            let row = try connection.query(
                "SELECT og_tag::text AS og_tag FROM link_previews WHERE url = $1 AND fetched_at >= $2", [url, since]
            ).first
        else { return nil }
        return .some(try row.decodeIfPresent("og_tag", as: String.self).map { try JSONColumn.value($0) })
    }

    public func store(_ url: String, _ tag: OGTag?, now: Int64) throws {
        try connection.query(
            """
            INSERT INTO link_previews (url, og_tag, fetched_at) VALUES ($1, $2::jsonb, $3)
            ON CONFLICT (url) DO UPDATE SET og_tag = EXCLUDED.og_tag, fetched_at = EXCLUDED.fetched_at
            """,
            [url, try tag.map(JSONColumn.text), now])
    }
}
