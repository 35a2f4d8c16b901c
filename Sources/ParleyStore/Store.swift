import Logging
import ParleyCore
import Postgres
import Traced
import Tracing

/// The repository layer's entry point: runs repository work on a pooled connection.
///
/// Repository methods are synchronous and run on the pool's database threads; a service groups
/// the calls of one operation in one `transaction`, and hands what must follow the commit to
/// `Repositories.afterCommit`. A lost database becomes 503/500902.
public struct Store: Sendable {
    let pool: ConnectionPool
    private let eventWake: EventWake
    private let groupCommit: GroupCommit
    /// The read replicas `replicaRead` may use; nil: every read is the primary's.
    let replicas: ReadReplicas?

    public init(pool: ConnectionPool, replicas: ReadReplicas? = nil) {
        self.pool = pool
        self.replicas = replicas
        self.eventWake = EventWake(pool: pool)
        self.groupCommit = GroupCommit(pool: pool, eventWake: eventWake)
    }

    /// Runs `body` on one connection in autocommit mode (each statement on its own).
    public func read<T: Sendable>(_ body: @escaping @Sendable (Repositories) throws -> T) async throws -> T {
        try await mappingUnavailable("db.read") {
            let (afterCommit, traceParent, trace) = (AfterCommit(), TraceParent.current, Self.roundTripTrace)
            let (result, wroteEvents) = try await pool.withConnection { connection in
                try connection.tracingRoundTrips(in: trace) {
                    let repositories = Repositories(connection: connection, afterCommit: afterCommit, traceParent: traceParent)
                    let result = try body(repositories)
                    return (result, try repositories.events.flush())
                }
            }
            if wroteEvents {
                eventWake.request()
                await recordWrite()
            }
            await afterCommit.run()
            return result
        }
    }

    /// Runs `body` in one transaction; a thrown error rolls all of it back.
    ///
    /// A transaction that meets a deadlock or a serialization failure was rolled back whole, so
    /// it is run again from the start, a few times, after a short random pause; `body` must do
    /// nothing but database work for that to be safe. What must follow the commit goes to
    /// `Repositories.afterCommit` and runs once the commit succeeded, after the connection is
    /// back in the pool; an attempt that rolls back drops what it collected.
    public func transaction<T: Sendable>(_ body: @escaping @Sendable (Repositories) throws -> T) async throws -> T {
        try await mappingUnavailable("db.transaction") {
            var attempt = 1
            let (traceParent, trace) = (TraceParent.current, Self.roundTripTrace)
            while true {
                let afterCommit = AfterCommit()
                do {
                    let (result, wroteEvents) = try await pool.withConnection { connection in
                        try connection.tracingRoundTrips(in: trace) {
                            try Self.runTransaction(on: connection, afterCommit: afterCommit, traceParent: traceParent, body)
                        }
                    }
                    if wroteEvents { eventWake.request() }
                    await recordWrite()
                    await afterCommit.run()
                    return result
                } catch let error as PostgresError where error.isTransient && attempt < Self.maxAttempts {
                    attempt += 1
                    try await Task.sleep(for: .milliseconds(Int.random(in: 2...10) * attempt))
                }
            }
        }
    }

    /// The trace of the database span the task runs in, when recorded: its round trips' parent.
    private static var roundTripTrace: InstrumentationContext? { Traced.isRecording ? InstrumentationContext.current : nil }

    /// One attempt of `transaction`'s body, with its events written last.
    private static func runTransaction<T>(
        on connection: PostgresConnection, afterCommit: AfterCommit, traceParent: String?, _ body: (Repositories) throws -> T
    ) throws -> (T, Bool) {
        try connection.transactionWithFinalStatement { connection in
            let repositories = Repositories(connection: connection, afterCommit: afterCommit, traceParent: traceParent)
            let result = try body(repositories)
            // The events go last, with the COMMIT: their locks are the last the transaction
            // takes, and held for the shortest time.
            let events = try repositories.events.flushStatement()
            return ((result, events != nil), last: events)
        }
    }

    /// Runs `body` like `transaction`, but in a transaction it may share with concurrent calls
    /// (see `GroupCommit`): in a savepoint of its own, so that it fails alone, and returning only
    /// once the shared transaction committed. `lockOrder` names the first row `body` locks (a
    /// channel URL): calls are run in its order. For the hottest write, sends.
    public func sharedTransaction<T: Sendable>(
        lockOrder: String, _ body: @escaping @Sendable (Repositories) throws -> T
    ) async throws -> T {
        try await mappingUnavailable("db.shared_transaction") {
            let (result, afterCommit) = try await groupCommit.run(lockOrder: lockOrder, body)
            await recordWrite()
            await afterCommit.run()
            return result
        }
    }

    /// Runs of a transaction that meets deadlocks, before it is answered 503.
    static let maxAttempts = 5

    /// Runs one statement on its own, pipelined with concurrent callers' statements (the hot
    /// reads: a user, a session token).
    public func fetch<T: Sendable>(_ lookup: Lookup<T>) async throws -> T {
        try await mappingUnavailable("db.lookup") {
            try await pool.run(lookup.query)
        }
    }

    /// A database that cannot serve now (lost, busy, timed out, still deadlocked) is 503. Each
    /// call is a span of the request's trace (issue 37), from the wait for a connection to the
    /// commit; a no-op without a tracer.
    func mappingUnavailable<T>(_ span: String, _ work: () async throws -> T) async throws -> T {
        try await Traced.span(span, ofKind: .client) { span in
            span?.attributes["db.system.name"] = "postgresql"
            do {
                return try await work()
            } catch let error as PostgresError where error.isUnavailability {
                throw ParleyError.unavailable
            }
        }
    }
}

/// A single read-only statement a repository offers for `Store.fetch`: it runs outside any
/// transaction, pipelined with other requests' lookups.
public struct Lookup<Result: Sendable>: Sendable {
    let query: Query<Result>
}

/// The repositories, bound to the connection of one `read` or `transaction`.
public struct Repositories {
    let connection: PostgresConnection
    private let pendingAfterCommit: AfterCommit
    private let pendingEvents = PendingEvents()
    /// The traced request's `traceparent` (`TraceParent`), for the queued work it starts.
    let traceParent: String?

    init(connection: PostgresConnection, afterCommit: AfterCommit, traceParent: String? = nil) {
        self.connection = connection
        self.pendingAfterCommit = afterCommit
        self.traceParent = traceParent
    }

    /// Runs `action` once the transaction has committed (never when it rolls back); in a `read`,
    /// whose statements commit one by one, once the read is over.
    public func afterCommit(_ action: @escaping AfterCommit.Action) {
        pendingAfterCommit.add(action)
    }

    /// The events collected so far, taken out (a shared transaction writes its calls' together).
    func takeEvents() -> [(event: NewEvent, traceParent: String?)] {
        pendingEvents.take()
    }

    /// The events of the change, written in its transaction (API.md §6.3).
    public var events: EventRepository { EventRepository(connection: connection, pending: pendingEvents, traceParent: traceParent) }
    public var presence: PresenceRepository { PresenceRepository(connection: connection) }
    public var users: UserRepository { UserRepository(connection: connection) }
    public func userMetadata(_ userID: String) -> MetadataRepository {
        MetadataRepository(connection: connection, owner: .user, ownerID: userID)
    }
    public func channelMetadata(_ channelURL: String, kind: ChannelKind = .group) -> MetadataRepository {
        MetadataRepository(connection: connection, owner: kind == .group ? .groupChannel : .openChannel, ownerID: channelURL)
    }
    public func channelMetacounter(_ channelURL: String, kind: ChannelKind) -> MetacounterRepository {
        MetacounterRepository(connection: connection, kind: kind, channelURL: channelURL)
    }
    public var pins: PinRepository { PinRepository(connection: connection) }
    public var threads: ThreadRepository { ThreadRepository(connection: connection) }
    public var scheduledMessages: ScheduledMessageRepository { ScheduledMessageRepository(connection: connection) }
    public var polls: PollRepository { PollRepository(connection: connection) }
    public var search: SearchRepository { SearchRepository(connection: connection) }
    public var openChannels: OpenChannelRepository { OpenChannelRepository(connection: connection) }
    public var participants: ParticipantRepository { ParticipantRepository(connection: connection) }
    public var groupChannels: GroupChannelRepository { GroupChannelRepository(connection: connection) }
    public var groupChannelMembers: GroupChannelMemberRepository { GroupChannelMemberRepository(connection: connection) }
    public var groupChannelLists: GroupChannelListRepository { GroupChannelListRepository(connection: connection) }
    public var groupChannelReader: GroupChannelReader { GroupChannelReader(connection: connection) }
    public var messages: MessageRepository { MessageRepository(connection: connection, traceParent: traceParent) }
    public var changelogs: ChangelogRepository { ChangelogRepository(connection: connection) }
    public var messageDedup: MessageDedupRepository { MessageDedupRepository(connection: connection) }
    public var receipts: ReceiptRepository { ReceiptRepository(connection: connection) }
    public var sendRates: SendRateRepository { SendRateRepository(connection: connection) }
    public var addressLimits: AddressLimitRepository { AddressLimitRepository(connection: connection) }
    public var bans: ModerationRepository { ModerationRepository(connection: connection, kind: .ban) }
    public var mutes: ModerationRepository { ModerationRepository(connection: connection, kind: .mute) }
    public var customTypeBans: CustomTypeRestrictionRepository { CustomTypeRestrictionRepository(connection: connection, kind: .ban) }
    public var customTypeMutes: CustomTypeRestrictionRepository { CustomTypeRestrictionRepository(connection: connection, kind: .mute) }
    public var auditLogs: AuditLogRepository { AuditLogRepository(connection: connection) }
    public var blocks: BlockRepository { BlockRepository(connection: connection) }
    public var pushTokens: PushTokenRepository { PushTokenRepository(connection: connection) }
    public var pushPreferences: PushPreferenceRepository { PushPreferenceRepository(connection: connection) }
    public var pushQueue: PushQueueRepository { PushQueueRepository(connection: connection) }
    public var jobs: JobRepository { JobRepository(connection: connection) }
    public var erasure: ErasureRepository { ErasureRepository(connection: connection) }
    public var personalData: PersonalDataRepository { PersonalDataRepository(connection: connection) }
    public var statistics: StatisticsRepository { StatisticsRepository(connection: connection) }
    public var exports: ExportRepository { ExportRepository(connection: connection) }
    public var retention: RetentionRepository { RetentionRepository(connection: connection) }
    public var emojis: EmojiRepository { EmojiRepository(connection: connection) }
    public var bots: BotRepository { BotRepository(connection: connection) }
    public var announcements: AnnouncementRepository { AnnouncementRepository(connection: connection) }
    public var messageFilters: MessageFilterRepository { MessageFilterRepository(connection: connection) }
    public var autoEventMessages: AutoEventMessageRepository { AutoEventMessageRepository(connection: connection) }
    public var applicationSecurity: ApplicationSecurityRepository { ApplicationSecurityRepository(connection: connection) }
    public var reports: ReportRepository { ReportRepository(connection: connection) }
    public var reactions: ReactionRepository { ReactionRepository(connection: connection) }
    public var files: FileRepository { FileRepository(connection: connection) }
    public var sessionTokens: SessionTokenRepository { SessionTokenRepository(connection: connection) }
    public var webhooks: WebhookRepository { WebhookRepository(connection: connection) }
    public var linkPreviews: LinkPreviewRepository { LinkPreviewRepository(connection: connection) }
    public var invitationPreferences: InvitationPreferenceRepository { InvitationPreferenceRepository(connection: connection) }
}
