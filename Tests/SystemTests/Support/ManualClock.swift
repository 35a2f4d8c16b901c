import ParleyCore
import Synchronization

/// A clock the test moves by hand, so that time-window rules are tested without racing the wall clock.
final class ManualClock: Sendable {
    private let millis: Mutex<Int64>

    init(_ start: Int64) {
        millis = Mutex(start)
    }

    func advance(by delta: Int64) {
        millis.withLock { $0 += delta }
    }

    var clock: Clock {
        Clock { [self] in millis.withLock { $0 } }
    }
}
