// The load client of scripts/bench/events (run in release mode): session tokens for the sockets
// scripts/bench/event-hold.c holds, and the fan-outs' paced sender. The admin token comes from
// PARLEY_API_TOKEN.
//
//   parley-event-load tokens --port P
//       reads user ids (one a line) on stdin, issues a session token for each through the API,
//       prints "user_id token" lines
//   parley-event-load fanout --holder-pid PID --holder-output FILE --http-port P --channel URL
//                            --sender USER [--kind group_channels|open_channels] [--rate 50]
//                            [--seconds 20] [--server-pids PID,PID] [--postgres-pid PID]
//       sends rate × seconds messages into the channel at a steady pace (the send time in each
//       message's text), waits until the event-hold process PID, measuring them, says "complete"
//       in FILE, and prints the sends' response times and the CPU the clients (this and the
//       holder), the servers and PostgreSQL (the postmaster and its children) used
import Foundation
import Logging
import NIOCore
import NIOPosix

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { usage() }
let options = Options(Array(arguments.dropFirst()))
let apiToken = ProcessInfo.processInfo.environment["PARLEY_API_TOKEN"] ?? ""
LoggingSystem.bootstrap { label in
    var handler = StreamLogHandler.standardError(label: label)
    handler.logLevel = .warning
    return handler
}

do {
    switch command {
    case "tokens":
        try await issueTokens(port: options.int("port"), concurrency: options.int("concurrency", default: 16))
    case "fanout":
        try await FanOut(
            holderPID: Int32(options.int("holder-pid")), holderOutput: options.string("holder-output"), httpPort: options.int("http-port"),
            kind: options.string("kind", default: "group_channels"), channelURL: options.string("channel"),
            senderID: options.string("sender"), rate: options.int("rate", default: 50),
            seconds: options.int("seconds", default: 20), serverPIDs: options.list("server-pids"),
            postgresPID: Int32(options.int("postgres-pid", default: 0))
        ).run()
    default:
        usage()
    }
} catch {
    FileHandle.standardError.write(Data("parley-event-load: \(error)\n".utf8))
    exit(1)
}

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: parley-event-load tokens|fanout [--option value …] (see main.swift)\n".utf8))
    exit(2)
}

/// `--name value` pairs.
struct Options {
    private var values: [String: String] = [:]

    init(_ arguments: [String]) {
        var index = 0
        while index + 1 < arguments.count, arguments[index].hasPrefix("--") {
            values[String(arguments[index].dropFirst(2))] = arguments[index + 1]
            index += 2
        }
        if index != arguments.count { usage() }
    }

    func string(_ name: String, default fallback: String? = nil) -> String {
        guard let value = values[name] ?? fallback else {
            FileHandle.standardError.write(Data("parley-event-load: --\(name) is required\n".utf8))
            exit(2)
        }
        return value
    }

    func int(_ name: String, default value: Int? = nil) -> Int {
        if values[name] == nil, let value { return value }
        guard let parsed = Int(string(name)) else { usage() }
        return parsed
    }

    func list(_ name: String) -> [Int32] {
        (values[name] ?? "").split(separator: ",").compactMap { Int32($0) }
    }
}

/// `POST /v3/users/{id}/token` for every id on stdin, over a few keep-alive connections.
func issueTokens(port: Int, concurrency: Int) async throws {
    var userIDs: [String] = []
    while let line = readLine(), !line.isEmpty { userIDs.append(line) }
    let queue = WorkQueue(userIDs)
    try await withThrowingTaskGroup(of: [String].self) { group in
        for _ in 0..<concurrency {
            group.addTask {
                let connection = try await HTTPConnection.connect(port: port)
                defer { connection.close() }
                var lines: [String] = []
                while let userID = queue.next() {
                    let response = try await connection.request(.POST, "/v3/users/\(userID)/token", apiToken: apiToken, json: "{}").get()
                    guard response.status == 200,
                        let body = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any],
                        let token = body["token"] as? String
                    else { throw LoadError("issuing a token for \(userID) answered \(response.status)") }
                    lines.append("\(userID) \(token)")
                }
                return lines
            }
        }
        for try await lines in group where !lines.isEmpty { say(lines.joined(separator: "\n")) }
    }
}

struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
