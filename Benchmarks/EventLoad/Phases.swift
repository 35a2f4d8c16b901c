import Dispatch
import Foundation
import NIOCore
import Synchronization

/// One channel's members (or an open channel's participants) each hold a socket; messages go
/// into the channel at a steady rate.
struct FanOut {
    let tokens: [String]
    let wsPort: Int
    let httpPort: Int
    /// `group_channels` or `open_channels`: in an open channel, smart throttling lets each
    /// participant receive at most a few of the others' messages per second, so the run waits a
    /// fixed drain rather than for every delivery, and reports what each socket received.
    let kind: String
    let channelURL: String
    let senderID: String
    let rate: Int
    let seconds: Int
    let serverPIDs: [Int32]
    let postgresPID: Int32

    /// Sends overlap on a few connections, so that one slow response does not hold up the next.
    static let senderConnections = 4
    /// How long after the last send the deliveries may take before the rest count as missing.
    static let drain = Duration.seconds(10)

    func run() async throws {
        let count = rate * seconds
        let expected = count * tokens.count
        let sockets = SocketSet(port: wsPort, tokens: tokens, messageCount: count)
        let window = Mutex<[String]>([])
        try await sockets.run { openSeconds in
            say("sockets \(tokens.count) opened in \(formatted(openSeconds, 1)) s")
            var connections: [HTTPConnection] = []
            for _ in 0..<Self.senderConnections { connections.append(try await HTTPConnection.connect(port: httpPort)) }
            defer { connections.forEach { $0.close() } }

            let (cpu, servers, postgres) = (ownCPUSeconds(), serverPIDs.map(processCPUSeconds), clusterCPUSeconds(postgresPID))
            let (machine, wallStart) = (MachineTimes.now(), monotonicNanos())
            let path = "/v3/\(kind)/\(channelURL)/messages"
            let responseTimes = Mutex<[UInt32]>([])
            var lags: [UInt32] = []
            var responses: [EventLoopFuture<HTTPConnection.Response>] = []
            let clock = ContinuousClock()
            let start = clock.now + .milliseconds(50)
            let interval = Duration.seconds(1) / rate
            for sequence in 0..<count {
                let due = start + interval * sequence
                try await clock.sleep(until: due, tolerance: .zero)
                let stamp = monotonicNanos()
                lags.append(UInt32(max(0, (clock.now - due) / .microseconds(1))))
                let json = #"{"message_type":"MESG","user_id":"\#(senderID)","message":"evtbench:\#(sequence):\#(stamp)"}"#
                let response = connections[sequence % connections.count].request(.POST, path, apiToken: apiToken, json: json)
                response.whenSuccess { _ in
                    let elapsed = UInt32((monotonicNanos() - stamp) / 1000)
                    responseTimes.withLock { $0.append(elapsed) }
                }
                responses.append(response)
            }
            var failed = 0
            for response in responses where !(200..<300).contains((try? await response.get().status) ?? 0) { failed += 1 }
            let sendSeconds = Double(monotonicNanos() - wallStart) / 1e9

            let throttled = kind == "open_channels"
            let deadline = clock.now + (throttled ? .seconds(2) : Self.drain)
            while (throttled || sockets.delivered.load(ordering: .relaxed) < expected) && clock.now < deadline {
                try await clock.sleep(for: .milliseconds(5))
            }
            let wallSeconds = Double(monotonicNanos() - wallStart) / 1e9
            let clientCPU = ownCPUSeconds() - cpu
            let serverCPU = zip(serverPIDs, servers).map { processCPUSeconds($0) - $1 }
            let postgresCPU = clusterCPUSeconds(postgresPID) - postgres
            let now = MachineTimes.now()
            // What else ran: with the client, the servers and PostgreSQL accounted for, the rest
            // would be another process taking the cores (a build, say), which spoils the figures.
            let other = now.busySeconds(since: machine) - clientCPU - serverCPU.reduce(0, +) - postgresCPU
            let sorted = responseTimes.withLock { $0 }.sorted()
            lags.sort()
            window.withLock {
                $0 = [
                    "sent \(count - failed)/\(count) in \(formatted(sendSeconds, 1)) s (failed \(failed)); send response ms p50 \(ms(percentile(sorted, 0.5))) p99 \(ms(percentile(sorted, 0.99))); sender lag ms p99 \(ms(percentile(lags, 0.99))) max \(ms(lags.last))",
                    "cpu_seconds window \(formatted(wallSeconds, 1)) client \(formatted(clientCPU, 1)) servers \(serverCPU.map { formatted($0, 1) }.joined(separator: "+")) postgres \(formatted(postgresCPU, 1)) other \(formatted(other, 1)) busy_percent \(formatted(now.busyPercent(since: machine), 0))"
                ]
            }
        }
        let totals = sockets.totals
        let latencies = totals.latencies.sorted()
        window.withLock { $0.forEach { say($0) } }
        say(
            "delivered \(latencies.count)/\(expected) missing \(totals.missing) duplicates \(totals.duplicates) foreign \(totals.foreign) closed_early \(totals.closedEarly) \(totals.closeCodes)"
        )
        say(
            "latency_ms p50 \(ms(percentile(latencies, 0.5))) p90 \(ms(percentile(latencies, 0.9))) p99 \(ms(percentile(latencies, 0.99))) max \(ms(latencies.last))"
        )
        say("frames \(totals.frames) message_events \(totals.messageEvents)")
        // The sender's own socket receives all of its messages; everyone else's is throttled.
        let full = totals.perSocket.filter { $0.received == count }
        let others = totals.perSocket.filter { $0.received < count }
        say(
            "per_socket full \(full.count) others \(others.count) others_received min \(others.map(\.received).min() ?? 0) max \(others.map(\.received).max() ?? 0) others_max_per_second \(others.map(\.maxPerSecond).max() ?? 0)"
        )
    }

    private func ms(_ micros: UInt32?) -> String {
        micros.map { formatted(Double($0) / 1000) } ?? "-"
    }
}
