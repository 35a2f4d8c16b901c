import ParleyCore
import ParleyStore
import Testing

@testable import ParleyEvents

/// `UnreadWatch` and `UnreadMove`: the pure part of the `unread_count_changed` cadence. Between two sends the hub
/// notes, per delivered event and recipient, whose counts moved; each (user, channel) pair is
/// asked for once per send however many events moved it.
@Suite struct UnreadWatchTests {
    private func moves(_ event: Event, for userID: String = "alice") -> Bool {
        var watch = UnreadWatch()
        watch.note(UnreadMove(event), for: userID)
        return !watch.isEmpty
    }

    private func pair(_ userID: String, _ channelURL: String) -> UnreadPair {
        UnreadPair(userID: userID, channelURL: channelURL)
    }

    @Test func anotherMembersMessageMovesTheCount() {
        #expect(moves(EventFixtures.sent(by: "bob")))
        #expect(moves(EventFixtures.sent(by: nil)), "an admin message")
    }

    @Test func ownAndSilentMessagesDoNot() {
        #expect(!moves(EventFixtures.sent(by: "alice")))
        #expect(!moves(EventFixtures.sent(by: "bob", silent: true)))
    }

    @Test func openChannelsHaveNoUnreadCounts() {
        #expect(!moves(EventFixtures.sent(by: "bob", in: "o1", kind: .open)))
        #expect(!moves(EventFixtures.event(1, .messageDeleted, channelURL: "o1", payload: .messageID(1), kind: .open)))
    }

    @Test func deletionsHidingAndJoiningMoveIt() {
        #expect(moves(EventFixtures.event(1, .messageDeleted, payload: .messageID(9))))
        #expect(moves(EventFixtures.event(1, .channelHidden)))
        #expect(moves(EventFixtures.event(1, .memberJoined, payload: .users([EventFixtures.user("dave")]))))
    }

    @Test func onlyTheReadersOwnReceiptMovesIt() {
        #expect(moves(EventFixtures.event(1, .read, payload: .receipt(userID: "alice", ts: 5))))
        #expect(!moves(EventFixtures.event(1, .read, payload: .receipt(userID: "bob", ts: 5))))
    }

    /// A leaver's total drops; the members who stay have nothing new to count.
    @Test func leavingMovesTheLeaversCountOnly() {
        let left = EventFixtures.event(1, .memberLeft, payload: .users([EventFixtures.user("alice"), EventFixtures.user("carol")]))
        #expect(moves(left, for: "alice"))
        #expect(moves(left, for: "carol"))
        #expect(!moves(left, for: "bob"))
    }

    @Test(arguments: [
        EventType.messageUpdated, .reactionUpdated, .delivered, .channelChanged, .channelUnhidden, .operatorsChanged, .metadataChanged,
        .userInvited, .userMuted
    ])
    func otherEventsLeaveItAlone(_ type: EventType) {
        #expect(!moves(EventFixtures.event(1, type, payload: EventFixtures.sent(by: "bob").payload)))
    }

    @Test func eventsWithoutAChannelAreIgnored() {
        #expect(!moves(EventFixtures.event(1, .messageDeleted, channelURL: nil, payload: .messageID(9))))
    }

    /// A busy channel moves the same counts with every message: one pair each, in the order first moved.
    @Test func eachPairIsNotedOnceInFirstMovedOrder() {
        var watch = UnreadWatch()
        #expect(watch.isEmpty)
        for _ in 0..<50 {
            watch.note(UnreadMove(EventFixtures.sent(by: "bob", in: "c1")), for: "alice")
            watch.note(UnreadMove(EventFixtures.sent(by: "bob", in: "c1")), for: "carol")
        }
        watch.note(UnreadMove(EventFixtures.sent(by: "bob", in: "c2")), for: "alice")
        watch.note(UnreadMove(EventFixtures.sent(by: "alice", in: "c3")), for: "alice")
        watch.note(UnreadMove(EventFixtures.event(7, .read, channelURL: "c1", payload: .receipt(userID: "alice", ts: 1))), for: "alice")
        #expect(watch.pairs == [pair("alice", "c1"), pair("carol", "c1"), pair("alice", "c2")])
    }
}
