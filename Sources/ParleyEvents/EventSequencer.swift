import ParleyCore

/// Puts the events one instance reads into id order, although transactions commit out of it.
///
/// Event ids are taken near the end of their transactions, so an id can become visible before a
/// smaller one whose transaction is still committing. Delivering past such a gap would break
/// `after` (a client resuming from the larger id would never get the smaller), so events wait
/// behind a missing id until it appears or is known never to come. An id is known never to come
/// once every transaction that was writing events when the gap was seen has ended and a read made
/// after that still does not find it (see `EventRepository.flush` and `producers()`): the wait is
/// the length of a commit, not of unrelated long transactions.
struct EventSequencer {
    /// Every id up to here was delivered or will never exist.
    private(set) var deliveredThrough: Int64
    private var highest: Int64
    /// Read, but behind a missing id.
    private var waiting: [Int64: Event] = [:]
    private var missing: [Int64: Watch] = [:]

    enum Watch: Equatable {
        /// Seen missing; the producers that might hold it are looked up on the next poll.
        case noticed
        /// Waiting for these producers (virtual transaction ids) to end.
        case producers(Set<String>)
    }

    /// Larger jumps (a sequence moved by hand) are not waited for, id by id.
    static let maxGap: Int64 = 100_000

    init(startingAfter id: Int64) {
        deliveredThrough = id
        highest = id
    }

    var missingIDs: [Int64] { Array(missing.keys) }
    var hasGaps: Bool { !missing.isEmpty }

    /// Step one of a poll, before the events are read: the producers running now.
    mutating func observe(producers running: Set<String>) {
        for (id, watch) in missing {
            switch watch {
            case .noticed: missing[id] = .producers(running)
            case .producers(let waitingFor): missing[id] = .producers(waitingFor.intersection(running))
            }
        }
    }

    /// Step two: the events read (ids above `highest`, and missing ones). Returns the events that
    /// can now be delivered, in id order.
    mutating func absorb(_ events: [Event]) -> [Event] {
        for event in events {
            let id = event.eventID
            if id > highest {
                if id - highest <= Self.maxGap {
                    for gap in (highest + 1)..<id { missing[gap] = .noticed }
                }
                highest = id
                waiting[id] = event
            } else if missing.removeValue(forKey: id) != nil {
                waiting[id] = event
            }
        }
        // Missing ids whose producers had all ended before this read were rolled back.
        missing = missing.filter { $0.value != .producers([]) }
        let through = missing.keys.min().map { $0 - 1 } ?? highest
        let ready = waiting.keys.filter { $0 <= through }.sorted().compactMap { waiting.removeValue(forKey: $0) }
        deliveredThrough = through
        return ready
    }
}
