import Testing

@testable import ParleyEvents

/// `UnreadCadence`: unread counts go out at once after a quiet spell, else one interval after the
/// last round, one round scheduled at a time, and only when something moved.
@Suite struct UnreadCadenceTests {
    static let start = ContinuousClock.now

    static func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        start + .milliseconds(milliseconds)
    }

    @Test func nothingMovedMeansNoRound() {
        var cadence = UnreadCadence(interval: .milliseconds(200))
        #expect(cadence.nextRound(now: Self.at(0)) == nil)
        cadence.note(UnreadMove(EventFixtures.sent(by: "alice")), for: "alice")
        #expect(cadence.nextRound(now: Self.at(0)) == nil, "a user's own message moves nothing")
    }

    @Test func theFirstRoundGoesAtOnceAndTheNextOneIntervalAfterIt() {
        var cadence = UnreadCadence(interval: .milliseconds(200))
        cadence.note(UnreadMove(EventFixtures.sent(by: "bob")), for: "alice")
        #expect(cadence.nextRound(now: Self.at(0)) == .zero)
        cadence.note(UnreadMove(EventFixtures.sent(by: "carol")), for: "alice")
        #expect(cadence.nextRound(now: Self.at(10)) == nil, "one round is scheduled already")
        let round = cadence.takeRound(now: Self.at(20))
        #expect(round.pairs.count == 1, "both messages moved one (user, channel) pair")
        #expect(cadence.watch.isEmpty)
        cadence.note(UnreadMove(EventFixtures.sent(by: "bob")), for: "alice")
        #expect(cadence.nextRound(now: Self.at(70)) == .milliseconds(150), "200 ms after the round taken at 20 ms")
    }

    @Test func afterAQuietSpellTheRoundGoesAtOnce() {
        var cadence = UnreadCadence(interval: .milliseconds(200))
        cadence.note(UnreadMove(EventFixtures.sent(by: "bob")), for: "alice")
        _ = cadence.nextRound(now: Self.at(0))
        _ = cadence.takeRound(now: Self.at(0))
        cadence.note(UnreadMove(EventFixtures.sent(by: "bob")), for: "dave")
        #expect(cadence.nextRound(now: Self.at(5_000)) == .zero)
    }
}
