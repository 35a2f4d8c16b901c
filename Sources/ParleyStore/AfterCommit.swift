import Synchronization

/// What a transaction's change must be followed by once it has committed (deleting stored files
/// today; wake-ups of other instances, webhooks and previews later), collected while the
/// transaction runs and run by `Store.transaction` after the commit, in the order added. A
/// transaction that rolls back (or is run again after a deadlock) drops what it collected, so
/// nothing follows a change that did not happen.
public final class AfterCommit: Sendable {
    public typealias Action = @Sendable () async -> Void
    private let actions = Mutex<[Action]>([])

    init() {}

    /// Runs `action` after the current transaction commits.
    func add(_ action: @escaping Action) {
        actions.withLock { $0.append(action) }
    }

    func run() async {
        for action in actions.withLock({ $0 }) { await action() }
    }
}
