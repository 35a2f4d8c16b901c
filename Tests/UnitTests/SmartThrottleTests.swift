import ParleyCore
import Testing

@testable import ParleyEvents

/// `SmartThrottle` (API.md §8.4): at most `limit` other participants' messages within any 1,000 ms
/// per user and open channel; the rest of the stream is never held back. Times are given in ms.
@Suite struct SmartThrottleTests {
    private let fromBob = EventFixtures.sent(by: "bob", in: "o1", kind: .open)

    /// The times among `times` at which `event` reaches `userID`.
    private func admitted(_ throttle: inout SmartThrottle, _ event: Event, to userID: String = "alice", at times: [Int64]) -> [Int64] {
        times.filter { throttle.admits(event, to: userID, nowMillis: $0) }
    }

    @Test func atMostTheLimitPassWithinASecond() {
        var throttle = SmartThrottle(limit: 3)
        #expect(admitted(&throttle, fromBob, at: [0, 1, 2, 3, 500, 999]) == [0, 1, 2])
        // The oldest admission leaves the window at 1,000 ms; refused ones never entered it.
        #expect(admitted(&throttle, fromBob, at: [1000, 1001, 1001, 1002, 1003]) == [1000, 1001, 1002])
    }

    /// A sliding second, not a calendar one: 5 at a second's end and 5 at the next one's start
    /// would be twice the limit within 200 ms.
    @Test func theSecondSlides() {
        var throttle = SmartThrottle(limit: 5)
        #expect(admitted(&throttle, fromBob, at: [900, 920, 940, 960, 980]).count == 5)
        #expect(admitted(&throttle, fromBob, at: [1000, 1050, 1100, 1899]).isEmpty)
        #expect(admitted(&throttle, fromBob, at: [1900, 1920, 1930]) == [1900, 1920])
    }

    @Test func eachRecipientAndChannelHasItsOwnWindow() {
        var throttle = SmartThrottle(limit: 2)
        let inOther = EventFixtures.sent(by: "bob", in: "o2", kind: .open)
        #expect(admitted(&throttle, fromBob, to: "alice", at: [0, 1, 2]) == [0, 1])
        #expect(admitted(&throttle, fromBob, to: "carol", at: [3, 4, 5]) == [3, 4])
        #expect(admitted(&throttle, inOther, to: "alice", at: [6, 7, 8]) == [6, 7])
    }

    /// All senders count together toward the recipient's limit in a channel.
    @Test func theLimitCoversAllOtherSenders() {
        var throttle = SmartThrottle(limit: 2)
        let fromDave = EventFixtures.sent(by: "dave", in: "o1", kind: .open)
        #expect(admitted(&throttle, fromBob, at: [0]) == [0])
        #expect(admitted(&throttle, fromDave, at: [1, 2]) == [1])
    }

    @Test func exemptEventsPassAndDoNotCount() {
        var throttle = SmartThrottle(limit: 1)
        let exempt: [(String, Event)] = [
            ("own message", EventFixtures.sent(by: "alice", in: "o1", kind: .open)),
            ("admin message", EventFixtures.sent(by: nil, in: "o1", kind: .open)),
            ("operator message", EventFixtures.sent(by: "bob", in: "o1", kind: .open, isOpMsg: true)),
            ("group channel", EventFixtures.sent(by: "bob", in: "o1", kind: .group)),
            ("an edit", EventFixtures.event(2, .messageUpdated, channelURL: "o1", payload: fromBob.payload, kind: .open)),
            ("a reaction", EventFixtures.event(3, .reactionUpdated, channelURL: "o1", kind: .open))
        ]
        for (name, event) in exempt {
            #expect(admitted(&throttle, event, at: Array(0..<20)).count == 20, "\(name)")
        }
        // None of them used the one admission of the second.
        #expect(admitted(&throttle, fromBob, at: [20, 21]) == [20])
    }

    @Test func aLimitOfZeroThrottlesNothing() {
        var throttle = SmartThrottle(limit: 0)
        #expect(admitted(&throttle, fromBob, at: Array(0..<100)).count == 100)
    }

    /// The sweep drops only windows idle for a second: one still in use keeps its admissions.
    @Test func theSweepKeepsWindowsStillInUse() {
        var throttle = SmartThrottle(limit: 3)
        #expect(admitted(&throttle, fromBob, to: "alice", at: [0, 500, 999]).count == 3)
        // Carol's delivery at 1,000 sweeps: Alice's last admission is 1 ms old and stays.
        #expect(admitted(&throttle, fromBob, to: "carol", at: [1000]) == [1000])
        #expect(admitted(&throttle, fromBob, to: "alice", at: [1001, 1002, 1499, 1500]) == [1001, 1500])
    }

    /// After a sweep has dropped an idle window, the user starts afresh with the full limit.
    @Test func anIdleWindowStartsAfresh() {
        var throttle = SmartThrottle(limit: 2)
        #expect(admitted(&throttle, fromBob, at: [0, 1]).count == 2)
        #expect(admitted(&throttle, fromBob, to: "carol", at: [5000]) == [5000])
        #expect(admitted(&throttle, fromBob, at: [5001, 5002, 5003]) == [5001, 5002])
    }
}
