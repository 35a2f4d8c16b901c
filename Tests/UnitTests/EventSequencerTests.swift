import ParleyCore
import Testing

@testable import ParleyEvents

/// `EventSequencer`: events go out in id order, wait behind a missing id, and stop waiting once
/// every transaction that might still commit it has ended.
@Suite struct EventSequencerTests {
    private func events(_ ids: Int64...) -> [Event] {
        ids.map { EventFixtures.event($0) }
    }

    private func ids(_ events: [Event]) -> [Int64] {
        events.map(\.eventID)
    }

    @Test func consecutiveIDsGoOutAtOnceInIDOrder() {
        var sequencer = EventSequencer(startingAfter: 10)
        #expect(ids(sequencer.absorb(events(13, 11, 12))) == [11, 12, 13])
        #expect(sequencer.deliveredThrough == 13)
        #expect(!sequencer.hasGaps)
    }

    @Test func eventsWaitBehindAMissingIDUntilItComes() {
        var sequencer = EventSequencer(startingAfter: 10)
        #expect(ids(sequencer.absorb(events(11, 13, 15))) == [11])
        #expect(sequencer.deliveredThrough == 11)
        #expect(Set(sequencer.missingIDs) == [12, 14])
        // 14 arrives, but 12 still holds everything behind it.
        #expect(ids(sequencer.absorb(events(14))).isEmpty)
        #expect(sequencer.deliveredThrough == 11)
        #expect(ids(sequencer.absorb(events(12))) == [12, 13, 14, 15])
        #expect(sequencer.deliveredThrough == 15)
        #expect(!sequencer.hasGaps)
    }

    /// An id is given up only once a poll has seen which producers might hold it and they have
    /// all ended; polls that have not looked at the producers yet keep waiting.
    @Test func aMissingIDIsGivenUpWhenItsProducersHaveEnded() {
        var sequencer = EventSequencer(startingAfter: 10)
        #expect(ids(sequencer.absorb(events(12))).isEmpty)
        #expect(ids(sequencer.absorb([])).isEmpty)
        sequencer.observe(producers: ["tx-a", "tx-b"])
        #expect(ids(sequencer.absorb([])).isEmpty)
        sequencer.observe(producers: ["tx-b", "tx-c"])
        #expect(ids(sequencer.absorb([])).isEmpty, "tx-b is still running")
        sequencer.observe(producers: ["tx-c", "tx-d"])
        #expect(ids(sequencer.absorb([])) == [12])
        #expect(sequencer.deliveredThrough == 12)
        #expect(!sequencer.hasGaps)
    }

    /// Transactions that began after the gap was seen cannot hold its id: they are not waited for.
    @Test func laterProducersDoNotProlongTheWait() {
        var sequencer = EventSequencer(startingAfter: 0)
        _ = sequencer.absorb(events(2))
        sequencer.observe(producers: ["old"])
        _ = sequencer.absorb([])
        sequencer.observe(producers: ["old", "new"])
        #expect(ids(sequencer.absorb([])).isEmpty)
        sequencer.observe(producers: ["new"])
        #expect(ids(sequencer.absorb([])) == [2])
    }

    /// The read that follows the producers' end is the last chance: found there, it is delivered.
    @Test func aMissingIDFoundInTheLastReadIsDelivered() {
        var sequencer = EventSequencer(startingAfter: 0)
        _ = sequencer.absorb(events(2, 3))
        sequencer.observe(producers: ["tx"])
        _ = sequencer.absorb([])
        sequencer.observe(producers: [])
        #expect(ids(sequencer.absorb(events(1))) == [1, 2, 3])
    }

    @Test func eachGapIsGivenUpOnItsOwn() {
        var sequencer = EventSequencer(startingAfter: 0)
        _ = sequencer.absorb(events(2))
        sequencer.observe(producers: ["a"])
        _ = sequencer.absorb(events(4))  // 3 is noticed now, while 1 is already watched
        sequencer.observe(producers: ["b"])  // 1 waited for "a", which has ended; 3 waits for "b"
        #expect(ids(sequencer.absorb([])) == [2])
        #expect(sequencer.missingIDs == [3])
        sequencer.observe(producers: [])
        #expect(ids(sequencer.absorb([])) == [4])
        #expect(sequencer.deliveredThrough == 4)
    }

    @Test func anEventIsNeverDeliveredTwice() {
        var sequencer = EventSequencer(startingAfter: 10)
        #expect(ids(sequencer.absorb(events(11, 12))) == [11, 12])
        #expect(ids(sequencer.absorb(events(11, 12, 13))) == [13])
        #expect(ids(sequencer.absorb(events(5))).isEmpty)
        #expect(sequencer.deliveredThrough == 13)
    }

    /// A gap given up for good is not reopened when its id turns up after all.
    @Test func anIDGivenUpStaysGivenUp() {
        var sequencer = EventSequencer(startingAfter: 0)
        _ = sequencer.absorb(events(2))
        sequencer.observe(producers: [])
        #expect(ids(sequencer.absorb([])) == [2])
        #expect(ids(sequencer.absorb(events(1))).isEmpty)
    }

    /// A sequence moved by hand is not waited for id by id.
    @Test func aJumpBeyondTheLargestGapIsNotWaitedFor() {
        var jumped = EventSequencer(startingAfter: 0)
        #expect(ids(jumped.absorb(events(EventSequencer.maxGap + 1))) == [EventSequencer.maxGap + 1])
        #expect(!jumped.hasGaps)

        var gapped = EventSequencer(startingAfter: 0)
        #expect(ids(gapped.absorb(events(EventSequencer.maxGap))).isEmpty)
        #expect(gapped.missingIDs.count == Int(EventSequencer.maxGap) - 1)
        #expect(gapped.deliveredThrough == 0)
    }

    @Test func payloadsComeThroughUntouched() {
        var sequencer = EventSequencer(startingAfter: 0)
        let sent = EventFixtures.sent(by: "bob")
        let event = Event(
            eventID: 1, type: sent.type, createdAt: 5, channelURL: "c1", audience: .members, userIDs: ["x"], payload: sent.payload)
        #expect(sequencer.absorb([event]) == [event])
    }
}
