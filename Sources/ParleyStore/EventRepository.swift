import Foundation
import ParleyCore
import Postgres
import Synchronization

/// The events a transaction has produced so far; `Store.transaction` writes them last, just
/// before the commit (see `EventRepository.flush`).
final class PendingEvents: Sendable {
    /// Each with the `traceparent` of the traced request that wrote it (`TraceParent`).
    private let events = Mutex<[(event: NewEvent, traceParent: String?)]>([])

    func add(_ event: NewEvent, traceParent: String?) {
        events.withLock { $0.append((event, traceParent)) }
    }

    func take() -> [(event: NewEvent, traceParent: String?)] {
        events.withLock { events in
            defer { events.removeAll() }
            return events
        }
    }
}

/// One event with what its recipient's membership says about it: the member's first visible
/// message time (a message event from before it is not theirs to see).
public struct ReplayedEvent: Sendable {
    public let event: Event
    public let visibleFrom: Int64?
}

/// SQL for `events` (API.md §6.3).
public struct EventRepository {
    let connection: PostgresConnection
    let pending: PendingEvents
    /// The traced request's, for the webhook deliveries its events queue.
    var traceParent: String? = nil

    /// The NOTIFY channel whose notifications say that events were committed.
    public static let notifyChannel = "parley_events"

    /// Adds an event of the current transaction; it is written when the transaction's work is
    /// done, in the same transaction.
    public func append(_ event: NewEvent) {
        pending.add(event, traceParent: traceParent)
    }

    public func append(_ events: [NewEvent]) {
        for event in events { pending.add(event, traceParent: traceParent) }
    }

    /// Writes the transaction's events, as its last statement.
    ///
    /// The statement first takes the shared producer lock (held until the transaction ends: a
    /// reader seeing a number missing can tell, from `pg_locks`, whether a producer that may hold
    /// it is still running — see `producers()`), then an advisory lock per channel (in channel
    /// order, so two transactions never wait for each other in a circle; within a channel, ids
    /// therefore follow commit order), and only then numbers the events. The NOTIFY is delivered
    /// at commit, never for a rollback.
    /// Returns whether it wrote any: then the other instances are woken once the transaction
    /// has committed (`wakeUp`).
    func flush() throws -> Bool {
        guard let statement = try flushStatement() else { return false }
        try connection.run(statement)
        return true
    }

    /// The wake-up of every instance's reader, sent after a commit that wrote events and on its
    /// own: a NOTIFY inside the transaction would hold PostgreSQL's one notification lock
    /// through the commit's disk flush and so serialise every commit of the server (measured:
    /// sends at half the rate). A wake-up lost with a dying process costs a reader its fallback
    /// poll, never an event.
    public static let wakeUp = Lookup(query: Query("SELECT pg_notify('\(notifyChannel)', '')") { _ in })

    /// The advisory lock space of the event locks ("PRLY"): key 0 is the shared producer lock,
    /// the others are channels' hashes.
    static let lockSpace: Int32 = 0x5052_4C59

    /// This database's transactions writing events now (virtual ids), from `pg_locks` (no snapshot:
    /// run it before the read it guards; it shows the cluster, and another database's are no gap's).
    public func producers() throws -> Set<String> {
        let rows = try connection.query(
            """
            SELECT virtualtransaction FROM pg_locks
            WHERE locktype = 'advisory' AND classid = $1::oid AND objid = 0 AND objsubid = 2 AND granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            """,
            [Int64(Self.lockSpace)]
        )
        return Set(try rows.map { try $0.decode("virtualtransaction") })
    }

    /// Events after `after`, and those among `missing` that have appeared since, in id order.
    ///
    /// Two index lookups in a union: written as one `WHERE event_id > $1 OR event_id = ANY($2)`,
    /// PostgreSQL walked the whole primary key in order and filtered it, 5.8 ms a read with the
    /// 130,000 events of a benchmark (and growing with the 24 h kept), on every wake-up of every
    /// instance; this is 0.1 ms.
    public func page(after: Int64, missing: [Int64], limit: Int) throws -> [Event] {
        let rows = try connection.query(
            """
            (SELECT \(Self.columns) FROM events WHERE event_id > $1 ORDER BY event_id LIMIT $3)
            UNION ALL
            (SELECT \(Self.columns) FROM events WHERE event_id = ANY($2::bigint[]) AND event_id <= $1)
            ORDER BY event_id LIMIT $3
            """,
            [after, missing, Int64(limit)]
        )
        return try rows.map(Self.decode)
    }

    /// The events after `after` up to `through` that `userID` receives by their memberships now
    /// (the channels they are in, from when they came in: migration 0021) or by name, oldest
    /// first, at most `limit`.
    public func replay(for userID: String, after: Int64, through: Int64, limit: Int) throws -> [ReplayedEvent] {
        let rows = try connection.query(
            """
            SELECT * FROM (
                SELECT \(Self.columns(prefix: "e.")), m.ts_message_offset AS visible_from
                FROM channel_recipients m
                    JOIN events e ON e.channel_url = m.channel_url AND e.event_id > GREATEST($2, m.since_event_id) AND e.event_id <= $4
                WHERE m.user_id = $1 AND e.audience < 2 AND (m.state = 'joined' OR e.audience = 1)
                    AND e.except_user_id IS DISTINCT FROM $1
                UNION ALL
                SELECT \(Self.columns(prefix: "e.")), NULL
                FROM events e WHERE e.user_ids @> ARRAY[$1::text] AND e.event_id > $2 AND e.event_id <= $4
                    AND e.except_user_id IS DISTINCT FROM $1
                    AND NOT (e.audience < 2 AND EXISTS (
                        SELECT 1 FROM channel_recipients m
                        WHERE m.channel_url = e.channel_url AND m.user_id = $1 AND (m.state = 'joined' OR e.audience = 1)
                            AND e.event_id > m.since_event_id))
            ) mine ORDER BY event_id LIMIT $3
            """,
            [userID, after, Int64(limit), through]
        )
        return try rows.map { ReplayedEvent(event: try Self.decode($0), visibleFrom: try $0.decodeIfPresent("visible_from")) }
    }

    /// The newest event id handed out so far (0 before the first).
    public func lastID() throws -> Int64 {
        try connection.query("SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS id FROM event_ids")[0].decode("id")
    }

    /// The highest id that retention has removed: a replay from before it cannot be complete.
    public func purgedThrough() throws -> Int64 {
        try connection.query("SELECT purged_through FROM event_retention")[0].decode("purged_through")
    }

    /// Removes the events older than `cutoff` (ms, the database's clock) and remembers the
    /// highest id removed. Returns how many went.
    @discardableResult
    public func purge(olderThanMillis age: Int64) throws -> Int {
        let rows = try connection.query(
            """
            WITH removed AS (
                DELETE FROM events WHERE created_at < (extract(epoch FROM clock_timestamp()) * 1000)::bigint - $1
                RETURNING event_id
            ), marked AS (
                UPDATE event_retention SET purged_through = GREATEST(purged_through, (SELECT max(event_id) FROM removed))
                WHERE EXISTS (SELECT 1 FROM removed)
            )
            SELECT count(*) AS removed FROM removed
            """,
            [age]
        )
        return Int(try rows[0].decode("removed") as Int64)
    }

    private static let columns = "event_id, type, created_at, channel_url, audience, user_ids, data, except_user_id, channel_type"

    private static func columns(prefix: String) -> String {
        columns.split(separator: ", ").map { prefix + $0 }.joined(separator: ", ")
    }

    private static func decode(_ row: PostgresRow) throws -> Event {
        let audience = try row.decode("audience") as Int64
        return Event(
            eventID: try row.decode("event_id"), type: try row.decode("type"), createdAt: try row.decode("created_at"),
            channelURL: try row.decodeIfPresent("channel_url"), audience: EventAudience(rawValue: Int(audience)) ?? .users,
            userIDs: try row.decode("user_ids"), payload: try EventPayloadMemo.shared.payload(storedAs: try row.decode("data")),
            exceptUserID: try row.decodeIfPresent("except_user_id"), channelKind: try row.decode("channel_type")
        )
    }
}

extension EventType: PostgresDecodable {}

extension EventRepository {
    /// NOTIFY channels besides the event log's: wake-ups that carry their whole message, never
    /// stored (typing, socket closures).
    public static let typingChannel = "parley_typing"
    public static let socketsChannel = "parley_sockets"

    /// Sends `payload` on `channel` at commit (at once, outside a transaction).
    public func notify(_ channel: String, _ payload: String) throws {
        try connection.query("SELECT pg_notify($1, $2)", [channel, payload])
    }

    /// The joined members of a channel (who receive typing).
    public func joinedMembers(_ channelURL: String) throws -> [String] {
        try connection.query(
            "SELECT user_id FROM group_channel_members WHERE channel_url = $1 AND state = 'joined'", [channelURL]
        ).map { try $0.decode("user_id") }
    }
}
