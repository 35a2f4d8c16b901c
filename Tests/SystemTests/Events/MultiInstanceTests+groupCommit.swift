import Foundation
import Postgres
import Synchronization
import Testing

/// Issue 32.2: sends share transactions (group commit); an instance killed in the middle of one
/// loses nothing it acknowledged and keeps nothing it refused.
extension MultiInstanceTests {
    private enum SendAnswer: Sendable {
        case created(String)
        case refused(String)
        /// The connection ended without an answer: either outcome is allowed.
        case none(String)
    }

    /// Set once the instance is killed (a child task cannot capture an Atomic itself).
    private final class Stop: Sendable {
        private let flag = Atomic<Bool>(false)
        var isSet: Bool { flag.load(ordering: .relaxed) }
        func set() { flag.store(true, ordering: .relaxed) }
    }

    @Test func anInstanceKilledInTheMiddleOfAGroupCommitKeepsExactlyWhatItAcknowledged() async throws {
        try await TestServer.withAPI { survivor in
            let process = try await ServerProcess()
            defer { process.stop() }
            let cast = try await survivor.cast("gcrash", 2)
            var channels: [String] = []
            for _ in 0..<8 { channels.append(try await survivor.createChannel(["user_ids": [cast[0]]])) }
            let channelList = channels
            let (member, outsider) = (cast[0], cast[1])
            let stopped = Stop()
            let answers = try await withThrowingTaskGroup(of: [SendAnswer].self) { group in
                // 16 senders at once, so that the instance batches them; every fourth send names a
                // user who is not a member (403): its text must never be stored.
                for worker in 0..<16 {
                    group.addTask {
                        var answers: [SendAnswer] = []
                        var index = 0
                        while !stopped.isSet {
                            index += 1
                            let text = "w\(worker)-\(index)"
                            let sender = index.isMultiple(of: 4) ? outsider : member
                            let body = #"{"user_id":"\#(sender)","message":"\#(text)"}"#
                            let channel = channelList[(worker + index) % channelList.count]
                            do {
                                let answer = try await process.request(
                                    "POST", "/v3/group_channels/\(channel)/messages", headers: ["Api-Token": TestServer.apiToken],
                                    body: body)
                                answers.append(answer.status == 201 ? .created(text) : .refused(text))
                            } catch {
                                answers.append(.none(text))
                            }
                        }
                        return answers
                    }
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(1500))
                    process.kill()
                    stopped.set()
                    return []
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let database = try PostgresConnection(conninfo: TestServer.databaseURL, logger: TestServer.logger)
            let stored = Set(
                try database.query("SELECT message FROM messages WHERE channel_url = ANY($1::text[])", [channelList]).map {
                    try $0.decode("message", as: String.self)
                })
            var created = 0
            var unanswered = 0
            for answer in answers {
                switch answer {
                case .created(let text):
                    created += 1
                    #expect(stored.contains(text), "\(text) was acknowledged but is not stored")
                case .refused(let text):
                    #expect(!stored.contains(text), "\(text) was refused but is stored")
                case .none:
                    unanswered += 1
                }
            }
            // The kill came while sends were being made, and after many had been acknowledged.
            #expect(created > 16)
            #expect(unanswered > 0)
            #expect(answers.contains { if case .refused = $0 { true } else { false } })
        }
    }
}
