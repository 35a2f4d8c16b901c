import Synchronization

/// Lets work of many users in by the turns of a `FairQueue`: each caller waits for its turn (at
/// most `patience`) and runs while holding it. Thumbnails wait here, so that one user's uploads
/// cannot hold every worker or the whole pixel budget (issue 29).
public final class FairGate: Sendable {
    private struct State {
        var queue: FairQueue<Void>
        /// Turns handed out whose waiter has not picked them up yet.
        var granted: [Int: FairQueue<Void>.Turn] = [:]

        mutating func handOut() {
            while let turn = queue.next() { granted[turn.ticket] = turn }
        }
    }

    private let state: Mutex<State>
    /// How often a waiter looks for its turn: waiters are few (`heldPerUser` per user), and a
    /// turn is held for tens of milliseconds at least.
    private static let pollInterval = Duration.milliseconds(10)

    public init(_ limits: FairQueue<Void>.Limits) {
        state = Mutex(State(queue: FairQueue(limits)))
    }

    /// Why a caller got no turn.
    public enum NoTurn: Error, Sendable {
        /// The user already holds as many turns (running or waiting) as allowed.
        case userHoldsTooMany
        /// The turn did not come within the caller's patience.
        case notWithinPatience
    }

    /// Runs `body` in the user's turn; nil without running it when the user already holds as many
    /// turns as allowed, or the turn did not come within `patience`.
    public func withTurn<T: Sendable>(user: String, cost: Int, patience: Duration, _ body: () async throws -> T) async throws -> T? {
        do {
            return try await turn(user: user, cost: cost, patience: patience, body)
        } catch is NoTurn {
            return nil
        }
    }

    /// Runs `body` in the user's turn; throws `NoTurn` without running it when there is none.
    public func turn<T: Sendable>(user: String, cost: Int, patience: Duration, _ body: () async throws -> T) async throws -> T {
        guard let ticket = state.withLock({ $0.queue.push((), user: user, cost: cost) }) else { throw NoTurn.userHoldsTooMany }
        let deadline = ContinuousClock.now + patience
        var turn: FairQueue<Void>.Turn?
        do {
            while turn == nil && ContinuousClock.now < deadline {
                turn = state.withLock { state in
                    state.handOut()
                    return state.granted.removeValue(forKey: ticket)
                }
                if turn == nil { try await Task.sleep(for: Self.pollInterval) }
            }
        } catch {
            giveUp(ticket, user: user)
            throw error
        }
        guard let turn else {
            giveUp(ticket, user: user)
            throw NoTurn.notWithinPatience
        }
        defer { state.withLock { $0.queue.finish(turn) } }
        return try await body()
    }

    /// A waiter leaves: out of the line, or, when its turn came meanwhile, the turn goes back.
    private func giveUp(_ ticket: Int, user: String) {
        state.withLock { state in
            if !state.queue.withdraw(ticket: ticket, user: user), let turn = state.granted.removeValue(forKey: ticket) {
                state.queue.finish(turn)
            }
        }
    }
}
