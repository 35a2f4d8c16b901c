import ParleyCore
import Testing

/// `ChannelAccess` (API.md §1.7, §3.3–3.4, §8): who sees a channel, who sees its members'
/// activity, who manages it and who invites to it, for every kind of caller.
@Suite struct ChannelAccessTests {
    /// One caller's standing in one channel, and what the rules must decide for it.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let caller: Caller
        let isPublic: Bool
        let state: MemberState?
        let isOperator: Bool
        let kind: ChannelKind
        let view: Bool
        let activity: Bool
        let manage: Bool
        let invite: Bool

        var access: ChannelAccess {
            ChannelAccess(caller: caller, isPublic: isPublic, state: state, isOperator: isOperator, kind: kind)
        }
        var testDescription: String { name }
    }

    static let alice = Caller.user("alice")

    static let table: [Case] = [
        Case(
            name: "admin, private group", caller: .admin, isPublic: false, state: nil, isOperator: false, kind: .group,
            view: true, activity: true, manage: true, invite: true),
        Case(
            name: "admin, public group", caller: .admin, isPublic: true, state: nil, isOperator: false, kind: .group,
            view: true, activity: true, manage: true, invite: true),
        Case(
            name: "admin, open channel", caller: .admin, isPublic: true, state: nil, isOperator: false, kind: .open,
            view: true, activity: true, manage: true, invite: true),
        Case(
            name: "joined operator, private group", caller: alice, isPublic: false, state: .joined, isOperator: true, kind: .group,
            view: true, activity: true, manage: true, invite: true),
        Case(
            name: "joined member, private group", caller: alice, isPublic: false, state: .joined, isOperator: false, kind: .group,
            view: true, activity: true, manage: false, invite: true),
        Case(
            name: "joined member, public group", caller: alice, isPublic: true, state: .joined, isOperator: false, kind: .group,
            view: true, activity: true, manage: false, invite: true),
        Case(
            name: "invited, private group", caller: alice, isPublic: false, state: .invited, isOperator: false, kind: .group,
            view: true, activity: false, manage: false, invite: false),
        // An operator who has not joined (yet, or any more) does not manage a group channel.
        Case(
            name: "invited operator, private group", caller: alice, isPublic: false, state: .invited, isOperator: true, kind: .group,
            view: true, activity: false, manage: false, invite: false),
        Case(
            name: "operator, not a member, public group", caller: alice, isPublic: true, state: nil, isOperator: true, kind: .group,
            view: true, activity: false, manage: false, invite: false),
        Case(
            name: "operator, not a member, private group", caller: alice, isPublic: false, state: nil, isOperator: true, kind: .group,
            view: false, activity: false, manage: false, invite: false),
        Case(
            name: "non-member, public group", caller: alice, isPublic: true, state: nil, isOperator: false, kind: .group,
            view: true, activity: false, manage: false, invite: false),
        Case(
            name: "non-member, private group", caller: alice, isPublic: false, state: nil, isOperator: false, kind: .group,
            view: false, activity: false, manage: false, invite: false),
        // Open channels: a participant counts as joined; operators manage whether in it or not.
        Case(
            name: "participant, open", caller: alice, isPublic: true, state: .joined, isOperator: false, kind: .open,
            view: true, activity: true, manage: false, invite: true),
        Case(
            name: "participating operator, open", caller: alice, isPublic: true, state: .joined, isOperator: true, kind: .open,
            view: true, activity: true, manage: true, invite: true),
        Case(
            name: "absent operator, open", caller: alice, isPublic: true, state: nil, isOperator: true, kind: .open,
            view: true, activity: false, manage: true, invite: false),
        Case(
            name: "visitor, open", caller: alice, isPublic: true, state: nil, isOperator: false, kind: .open,
            view: true, activity: false, manage: false, invite: false)
    ]

    @Test(arguments: table)
    func decisionsMatchTheTable(_ row: Case) {
        let access = row.access
        #expect(access.canView == row.view)
        #expect(access.canSeeMemberActivity == row.activity)
        #expect(access.canManage == row.manage)
    }

    /// What cannot be seen is 404 (a private channel does not leak), seen but not allowed is 403.
    @Test(arguments: table)
    func requirementsThrowNotFoundOrForbiddenAsTheTableSays(_ row: Case) {
        let access = row.access
        #expect(outcome { try access.requireView("c1") } == (row.view ? nil : 404))
        #expect(outcome { try access.requireManage("c1") } == (!row.view ? 404 : row.manage ? nil : 403))
        #expect(outcome { try access.requireInvite("c1") } == (!row.view ? 404 : row.invite ? nil : 403))
    }

    @Test func refusalsCarryTheDocumentedCodes() {
        let stranger = ChannelAccess(caller: Self.alice, isPublic: false, state: nil, isOperator: false)
        #expect(throws: ParleyError(status: 404, code: 400201, message: "Channel \"c1\" not found.")) { try stranger.requireManage("c1") }
        let member = ChannelAccess(caller: Self.alice, isPublic: false, state: .joined, isOperator: false)
        let forbidden = #expect(throws: ParleyError.self) { try member.requireManage("c1") }
        #expect(forbidden?.status == 403 && forbidden?.code == 400108)
    }

    @Test func onlyTheAdminRemovesAnotherOperator() {
        let operators: Set<String> = ["alice", "bob"]
        func allowed(_ ids: [String], by caller: Caller) -> Bool {
            (try? ChannelAccess.requireMayRemoveOperators(ids, operators: operators, by: caller)) != nil
        }
        #expect(allowed(["alice", "bob"], by: .admin))
        #expect(allowed(["alice"], by: Self.alice), "giving up one's own role")
        #expect(allowed(["carol"], by: Self.alice), "naming a user who is no operator takes no one's role")
        #expect(allowed([], by: Self.alice))
        #expect(!allowed(["bob"], by: Self.alice))
        #expect(!allowed(["alice", "bob"], by: Self.alice), "one other operator in the list refuses it all")
        #expect(!allowed(["alice"], by: .user("carol")))
        #expect(
            outcome { try ChannelAccess.requireMayRemoveOperators(["bob"], operators: operators, by: Self.alice) } == 403)
    }

    /// The HTTP status thrown, or nil when nothing is.
    private func outcome(_ body: () throws -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch let error as ParleyError {
            return error.status
        } catch {
            return -1
        }
    }
}
