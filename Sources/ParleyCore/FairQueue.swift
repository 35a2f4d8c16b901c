/// Work of many users handed out fairly (issue 29): each user's items wait in a line of their
/// own, users take turns, a user runs at most `runningPerUser` items at once and may hold at
/// most `heldPerUser` waiting or running (more is refused at once, so a flood never pushes
/// anyone else back), and the items running together cost at most `capacity` (workers, or
/// decoded pixels). An item costing more than `capacity` counts as all of it: it runs alone.
/// Turns are strict: when the item whose turn it is does not fit yet, nothing overtakes it, so
/// a large item is never starved by small ones.
///
/// Bookkeeping only; its owner keeps it under a lock and runs the items. Per instance: it
/// bounds this process's own resources.
public struct FairQueue<Item> {
    public struct Limits: Sendable, Equatable {
        public var capacity: Int
        public var runningPerUser: Int
        public var heldPerUser: Int

        public init(capacity: Int, runningPerUser: Int, heldPerUser: Int) {
            self.capacity = max(1, capacity)
            self.runningPerUser = max(1, runningPerUser)
            self.heldPerUser = max(self.runningPerUser, heldPerUser)
        }
    }

    /// An item handed out by `next`; give it back to `finish` when it is done.
    public struct Turn {
        public let ticket: Int
        public let user: String
        public let cost: Int
        public let item: Item
    }

    public let limits: Limits
    private var waiting: [String: [Turn]] = [:]
    /// Users with waiting items, the one whose turn it is first.
    private var turns: [String] = []
    private var running: [String: Int] = [:]
    private var held: [String: Int] = [:]
    public private(set) var costRunning = 0
    private var lastTicket = 0

    public init(_ limits: Limits) { self.limits = limits }

    /// Queues `item`; returns its ticket, or nil when the user already holds `heldPerUser` items.
    public mutating func push(_ item: Item, user: String, cost: Int = 1) -> Int? {
        guard held[user, default: 0] < limits.heldPerUser else { return nil }
        lastTicket += 1
        held[user, default: 0] += 1
        if waiting[user] == nil { turns.append(user) }
        waiting[user, default: []].append(Turn(ticket: lastTicket, user: user, cost: min(max(0, cost), limits.capacity), item: item))
        return lastTicket
    }

    /// The next item to run, if the user whose turn it is may run one more and it fits what is
    /// free; it counts as running until `finish`. Users at their running limit let others pass.
    public mutating func next() -> Turn? {
        guard let index = turns.firstIndex(where: { running[$0, default: 0] < limits.runningPerUser }) else { return nil }
        let user = turns[index]
        guard let turn = waiting[user]?.first, costRunning + turn.cost <= limits.capacity else { return nil }
        waiting[user]!.removeFirst()
        turns.remove(at: index)
        if waiting[user]!.isEmpty { waiting[user] = nil } else { turns.append(user) }
        running[user, default: 0] += 1
        costRunning += turn.cost
        return turn
    }

    /// A running item is done.
    public mutating func finish(_ turn: Turn) {
        costRunning -= turn.cost
        running[turn.user] = running[turn.user].map { $0 - 1 }.flatMap { $0 > 0 ? $0 : nil }
        release(turn.user)
    }

    /// Takes a waiting item out (its waiter gave up); false when it is no longer waiting.
    public mutating func withdraw(ticket: Int, user: String) -> Bool {
        guard let index = waiting[user]?.firstIndex(where: { $0.ticket == ticket }) else { return false }
        waiting[user]!.remove(at: index)
        if waiting[user]!.isEmpty {
            waiting[user] = nil
            turns.removeAll { $0 == user }
        }
        release(user)
        return true
    }

    private mutating func release(_ user: String) {
        held[user] = held[user].map { $0 - 1 }.flatMap { $0 > 0 ? $0 : nil }
    }
}

extension FairQueue: Sendable where Item: Sendable {}
extension FairQueue.Turn: Sendable where Item: Sendable {}
