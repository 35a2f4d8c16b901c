import ParleyCore
import Testing

/// The turn-taking of issue 29 alone: users alternate, one user's flood is refused past its
/// limit, the cost running at once stays within the capacity, and nothing overtakes a large item.
@Suite struct FairQueueTests {
    @Test func usersTakeTurnsAndAFloodIsRefusedPastItsLimit() {
        var queue = FairQueue<String>(.init(capacity: 4, runningPerUser: 2, heldPerUser: 3))
        for n in 0..<5 { _ = queue.push("a\(n)", user: "a") }
        let refused = queue.push("a5", user: "a")
        #expect(refused == nil)
        _ = queue.push("b0", user: "b")
        var order: [String] = []
        while let turn = queue.next() { order.append(turn.item) }
        // a has 3 held (3 refused); only 2 may run; b runs beside them.
        #expect(order == ["a0", "b0", "a1"])
    }

    @Test func theCapacityBoundsTheCostAndALargeItemIsNotOvertaken() throws {
        var queue = FairQueue<String>(.init(capacity: 100, runningPerUser: 1, heldPerUser: 4))
        _ = queue.push("small-a", user: "a", cost: 60)
        _ = queue.push("huge-b", user: "b", cost: 1_000)
        _ = queue.push("small-c", user: "c", cost: 10)
        let first = queue.next()
        #expect(first?.item == "small-a")
        // b's turn: it needs all 100 (capped), so c waits behind it instead of starving it.
        let blocked = queue.next()
        #expect(blocked == nil)
        queue.finish(try #require(first))
        let second = queue.next()
        #expect(second?.item == "huge-b" && second?.cost == 100)
        queue.finish(try #require(second))
        let third = queue.next()
        #expect(third?.item == "small-c")
    }

    @Test func aWithdrawnItemFreesItsPlace() throws {
        var queue = FairQueue<Int>(.init(capacity: 1, runningPerUser: 1, heldPerUser: 1))
        let pushed = queue.push(1, user: "a")
        let ticket = try #require(pushed)
        let refused = queue.push(2, user: "a")
        #expect(refused == nil)
        let withdrawn = queue.withdraw(ticket: ticket, user: "a")
        #expect(withdrawn)
        let admitted = queue.push(3, user: "a")
        #expect(admitted != nil)
        let next = queue.next()
        #expect(next?.item == 3)
    }
}
