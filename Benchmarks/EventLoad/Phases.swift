import Dispatch
import Foundation
import NIOCore
import Synchronization

/// One channel's members (or an open channel's participants) each hold a socket; messages go
/// into the channel at a steady rate.
///
/// The sockets are scripts/bench/event-hold.c's, already open and measuring the messages this
/// sends (it says "complete" in its output once every socket has every one): a C epoll loop
/// costs a fraction of NIO's client per frame, and on two cores the client's CPU is taken from
/// the server it measures. This process sends, waits for the deliveries and reports the CPU
/// that the sends and deliveries cost the holder, itself, the servers and PostgreSQL.
struct FanOut {
    let holderPID: Int32
    let holderOutput: String
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
        var connections: [HTTPConnection] = []
        for _ in 0..<Self.senderConnections { connections.append(try await HTTPConnection.connect(port: httpPort)) }
        defer { connections.forEach { $0.close() } }

        let clientCPU = { ownCPUSeconds() + processCPUSeconds(holderPID) }
        let (cpu, servers, postgres) = (clientCPU(), serverPIDs.map(processCPUSeconds), clusterCPUSeconds(postgresPID))
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
        while (throttled || !holderIsComplete()) && clock.now < deadline {
            try await clock.sleep(for: .milliseconds(5))
        }
        let wallSeconds = Double(monotonicNanos() - wallStart) / 1e9
        let clientSeconds = clientCPU() - cpu
        let serverCPU = zip(serverPIDs, servers).map { processCPUSeconds($0) - $1 }
        let postgresCPU = clusterCPUSeconds(postgresPID) - postgres
        let now = MachineTimes.now()
        // What else ran: with the clients, the servers and PostgreSQL accounted for, the rest
        // would be another process taking the cores (a build, say), which spoils the figures.
        let other = now.busySeconds(since: machine) - clientSeconds - serverCPU.reduce(0, +) - postgresCPU
        let sorted = responseTimes.withLock { $0 }.sorted()
        lags.sort()
        say(
            "sent \(count - failed)/\(count) in \(formatted(sendSeconds, 1)) s (failed \(failed)); send response ms p50 \(ms(percentile(sorted, 0.5))) p99 \(ms(percentile(sorted, 0.99))); sender lag ms p99 \(ms(percentile(lags, 0.99))) max \(ms(lags.last))"
        )
        say(
            "cpu_seconds window \(formatted(wallSeconds, 1)) client \(formatted(clientSeconds, 1)) servers \(serverCPU.map { formatted($0, 1) }.joined(separator: "+")) postgres \(formatted(postgresCPU, 1)) other \(formatted(other, 1)) busy_percent \(formatted(now.busyPercent(since: machine), 0))"
        )
    }

    /// Whether the holder has said "complete": every socket has every message. Its output is a
    /// few short lines, so reading it every few milliseconds costs next to nothing.
    private func holderIsComplete() -> Bool {
        (try? String(contentsOfFile: holderOutput, encoding: .utf8))?.contains("\ncomplete\n") ?? false
    }

    private func ms(_ micros: UInt32?) -> String {
        micros.map { formatted(Double($0) / 1000) } ?? "-"
    }
}
