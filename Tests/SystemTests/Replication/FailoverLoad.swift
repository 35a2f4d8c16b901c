import Foundation
import Synchronization
import Testing

/// Eight senders and two listeners on one channel while the cluster's primary goes away
/// (issue 51.4). Each sender sends numbered messages with a dedup id of its own and, on a 503,
/// sends the same message again (as clients are told to); each listener's event stream is
/// opened again with `after` whenever it closes.
final class FailoverLoad: Sendable {
    struct Answer: Sendable {
        let sentAt: ContinuousClock.Instant
        let answeredAt: ContinuousClock.Instant
        let status: Int
        let text: String
    }

    let answers = Mutex<[Answer]>([])
    private let stopped = Atomic<Bool>(false)

    /// Sends until `stop()`; the messages' texts are their dedup ids.
    func send(_ api: API, channel: String, sender: String) async throws {
        var number = 0
        while !stopped.load(ordering: .relaxed) {
            number += 1
            let text = "\(sender)-\(number)"
            while true {
                let sentAt = ContinuousClock.now
                let status: Int
                do {
                    status = try await api.post(
                        "/v3/group_channels/\(channel)/messages",
                        ["message_type": "MESG", "user_id": sender, "message": text, "dedup_id": text]
                    ).status
                } catch {
                    status = 0  // no answer at all
                }
                answers.withLock { $0.append(Answer(sentAt: sentAt, answeredAt: .now, status: status, text: text)) }
                if (200..<300).contains(status) { break }
                guard status == 503 else { return }  // recorded; the test fails on it
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    /// The texts whose send was acknowledged.
    var acknowledged: Set<String> { Set(answers.withLock { $0 }.filter { (200..<300).contains($0.status) }.map(\.text)) }

    /// Every status that is neither a success nor a 503.
    var unexpected: [Int] { answers.withLock { $0 }.map(\.status).filter { !(200..<300).contains($0) && $0 != 503 } }

    /// The longest time in which no send succeeded: the failover's unavailability window (zero
    /// when nothing failed).
    var unavailability: Duration {
        let all = answers.withLock { $0 }
        guard all.contains(where: { $0.status == 503 }) else { return .zero }
        let successes = all.filter { (200..<300).contains($0.status) }.map(\.answeredAt).sorted()
        return zip(successes, successes.dropFirst()).map { $1 - $0 }.max() ?? .zero
    }
}

/// An event stream that is opened again with `after` whenever it closes, as a client does.
final class ResumingListener: Sendable {
    private let messageIDs = Mutex<Set<Int64>>([])
    private let stopped = Atomic<Bool>(false)
    /// Whether the first stream is open (what is sent before is not its to hear).
    let isListening = Atomic<Bool>(false)

    func listen(_ api: API, token: String) async throws {
        var after: Int64?
        while !stopped.load(ordering: .relaxed) {
            let socket: EventSocket
            do {
                socket = try await api.events(token, after: after)
            } catch {
                try await Task.sleep(for: .milliseconds(500))
                continue
            }
            isListening.store(true, ordering: .relaxed)
            while !socket.isClosed && !stopped.load(ordering: .relaxed) {
                try await Task.sleep(for: .milliseconds(100))
                record(socket.events, after: &after)
            }
            record(socket.events, after: &after)
            socket.close()
        }
    }

    private func record(_ events: [[String: Any]], after: inout Int64?) {
        let received = events.filter { $0["type"] as? String == "message_received" }
            .compactMap { (($0["data"] as? [String: Any])?["message_id"] as? NSNumber)?.int64Value }
        messageIDs.withLock { $0.formUnion(received) }
        if let last = events.compactMap({ ($0["event_id"] as? NSNumber)?.int64Value }).max() { after = max(after ?? 0, last) }
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    var received: Set<Int64> { messageIDs.withLock { $0 } }
}
