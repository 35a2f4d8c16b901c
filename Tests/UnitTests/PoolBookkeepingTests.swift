import Testing

@testable import Postgres

/// The connection pool's bookkeeping, with stand-in connections and deadlines chosen by the test
/// (a fake clock: `overdue(at:)` takes the time).
@Suite struct PoolBookkeepingTests {
    final class Connection: Equatable {
        let name: String
        init(_ name: String) { self.name = name }
        static func == (a: Connection, b: Connection) -> Bool { a === b }
    }

    struct Item: PoolQueueItem, Equatable {
        let id: UInt64
        let deadline: ContinuousClock.Instant
    }

    typealias Books = PoolBookkeeping<Connection, Item, Item>

    static let start = ContinuousClock.now

    static func item(_ id: UInt64, dueIn milliseconds: Int) -> Item {
        Item(id: id, deadline: start + .milliseconds(milliseconds))
    }

    static func books(size: Int = 2, maxWaiting: Int = 3, maxQueued: Int = 4, runners: Int = 1) -> Books {
        Books(size: size, maxWaiting: maxWaiting, maxQueuedStatements: maxQueued, maxPipelineRunners: runners)
    }

    @Test func slotsOpenUpToTheSizeThenJobsQueueInArrivalOrderUpToTheLimit() {
        var books = Self.books()
        guard case .open = books.lease().lease, case .open = books.lease().lease else {
            Issue.record("two slots open")
            return
        }
        #expect(books.inUse == 2)
        guard case .queued = books.lease().lease else {
            Issue.record("without a waiter: wait")
            return
        }
        #expect(books.waiters.isEmpty, "asking without a waiter queues nothing")
        let first = books.lease(queueing: Self.item(1, dueIn: 100))
        #expect(first.startSweep, "the first waiter starts the sweep")
        for id in 2...3 {
            let queued = books.lease(queueing: Self.item(UInt64(id), dueIn: 100))
            guard case .queued = queued.lease else {
                Issue.record("waiter \(id) queues")
                return
            }
            #expect(!queued.startSweep, "one sweep at a time")
        }
        guard case .full = books.lease(queueing: Self.item(4, dueIn: 100)).lease else {
            Issue.record("the fourth is refused")
            return
        }
        guard case .cancelled = books.lease(queueing: Self.item(5, dueIn: 100), isCancelled: true).lease else {
            Issue.record("a cancelled job does not queue")
            return
        }
        #expect(books.waiters.map(\.id) == [1, 2, 3])
    }

    @Test func aReturnedConnectionGoesToTheFirstWaiterElseIdleAndAFreedSlotToTheNext() {
        var books = Self.books(size: 1)
        _ = books.lease()
        _ = books.lease(queueing: Self.item(1, dueIn: 100))
        _ = books.lease(queueing: Self.item(2, dueIn: 100))
        let connection = Connection("a")
        #expect(books.returned(connection)?.id == 1)
        #expect(books.abandonWaiter(2)?.id == 2, "a cancelled waiter leaves the queue")
        #expect(books.abandonWaiter(2) == nil)
        #expect(books.returned(connection) == nil)
        #expect(books.idle == [connection] && books.inUse == 0)
        guard case .use(let lent) = books.lease().lease else {
            Issue.record("the idle connection is lent")
            return
        }
        #expect(lent === connection)
        _ = books.lease(queueing: Self.item(3, dueIn: 100))
        #expect(books.slotFreed()?.id == 3, "a dropped connection's slot goes to the waiter, who opens one")
        #expect(books.opened == 1)
        #expect(books.slotFreed() == nil)
        #expect(books.opened == 0)
    }

    @Test func theSweepTakesOnlyWhatIsPastItsDeadlineAndEndsWhenNothingWaits() {
        var books = Self.books(size: 1)
        _ = books.lease()
        _ = books.lease(queueing: Self.item(1, dueIn: 100))
        _ = books.lease(queueing: Self.item(2, dueIn: 300))
        _ = books.enqueue(Self.item(10, dueIn: 150))
        _ = books.enqueue(Self.item(11, dueIn: 400))
        let early = books.overdue(at: Self.start + .milliseconds(50))
        #expect(early.waiters.isEmpty && early.statements.isEmpty && !early.done)
        let middle = books.overdue(at: Self.start + .milliseconds(200))
        #expect(middle.waiters.map(\.id) == [1] && middle.statements.map(\.id) == [10] && !middle.done)
        let late = books.overdue(at: Self.start + .milliseconds(500))
        #expect(late.waiters.map(\.id) == [2] && late.statements.map(\.id) == [11] && late.done)
        #expect(books.lease(queueing: Self.item(3, dueIn: 100)).startSweep, "a new sweep starts once the last ended")
    }

    @Test func statementsStartRunnersUpToTheLimitAndBatchesRetireThem() {
        var books = Self.books(maxQueued: 3, runners: 1)
        guard case .startRunner = books.enqueue(Self.item(1, dueIn: 100)).outcome else {
            Issue.record("a runner starts")
            return
        }
        guard case .queued = books.enqueue(Self.item(2, dueIn: 100)).outcome else {
            Issue.record("one runner is enough")
            return
        }
        _ = books.enqueue(Self.item(3, dueIn: 100))
        guard case .full = books.enqueue(Self.item(4, dueIn: 100)).outcome else {
            Issue.record("the queue is bounded")
            return
        }
        #expect(books.abandonStatement(2)?.id == 2)
        #expect(books.nextBatch(limit: 1)?.map(\.id) == [1])
        #expect(books.nextBatch(limit: 5)?.map(\.id) == [3])
        #expect(books.pipelineRunners == 1)
        #expect(books.nextBatch(limit: 5) == nil)
        #expect(books.pipelineRunners == 0, "a runner that finds nothing retires")
        guard case .startRunner = books.enqueue(Self.item(5, dueIn: 100)).outcome else {
            Issue.record("and a new one starts")
            return
        }
    }

    @Test func closingHandsBackEverythingAndRefusesWhatComesAfter() {
        var books = Self.books(size: 1)
        _ = books.lease()
        let connection = Connection("a")
        #expect(books.returned(connection) == nil)
        _ = books.lease()
        _ = books.lease(queueing: Self.item(1, dueIn: 100))
        _ = books.enqueue(Self.item(2, dueIn: 100))
        let closed = books.close()
        #expect(closed.waiters.map(\.id) == [1] && closed.statements.map(\.id) == [2] && closed.idle.isEmpty)
        guard case .closed = books.lease().lease else {
            Issue.record("a closed pool lends nothing")
            return
        }
        #expect(books.returned(Connection("b")) == nil && books.idle.isEmpty, "a connection returned after closing is dropped")
    }
}
