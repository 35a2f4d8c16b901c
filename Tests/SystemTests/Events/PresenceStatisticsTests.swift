import Testing

@testable import ParleyEvents

/// When `event_sockets` is analyzed (the plans of presence lookups follow its size; the effect
/// on lookups is measured by scripts/bench/events).
@Suite struct PresenceStatisticsTests {
    @Test func aRefreshIsDueWhenTheSocketsDoubleOrHalveByAtLeastAHundred() {
        let statistics = PresenceStatistics()
        #expect(!statistics.refreshIsDue(count: 99))
        #expect(statistics.refreshIsDue(count: 100))
        // One at a time: none while it runs.
        #expect(!statistics.refreshIsDue(count: 5000))
        statistics.finished()
        #expect(!statistics.refreshIsDue(count: 199))
        #expect(statistics.refreshIsDue(count: 200))
        statistics.finished()
        #expect(!statistics.refreshIsDue(count: 350))
        #expect(statistics.refreshIsDue(count: 10_000))
        statistics.finished()
        #expect(!statistics.refreshIsDue(count: 5_001))
        #expect(statistics.refreshIsDue(count: 5_000))
        statistics.finished()
        // Halving from 5,000 again, then to nothing (still a change of at least a hundred).
        #expect(statistics.refreshIsDue(count: 2_500))
        statistics.finished()
        #expect(statistics.refreshIsDue(count: 0))
        statistics.finished()
        #expect(!statistics.refreshIsDue(count: 50))
    }
}
