import CurlHTTP
import Foundation

// CurlHTTP's request rate against a local server, for scripts/bench/translation: `count` GETs
// of `url`, `concurrency` at a time, on one CurlClient. Prints one line of key=value pairs,
// with the growth of the process's resident memory over the run (handles and buffers are freed:
// it stays flat).
let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[2]), let concurrency = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: parley-curl-bench URL COUNT CONCURRENCY\n".utf8))
    exit(2)
}
let url = arguments[1]
let client = CurlClient(maxConnectionsPerHost: concurrency)

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return user + system
}

/// VmRSS from /proc/self/status, in bytes.
func residentBytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
}

// Warm-up: connections opened, code paths touched.
for _ in 0..<200 { _ = try await client.send(.init(.get, url)) }
let residentBefore = residentBytes()
let cpuBefore = cpuSeconds()
let started = ContinuousClock.now
let failures = await withTaskGroup(of: Int.self) { group in
    for worker in 0..<concurrency {
        group.addTask {
            var failed = 0
            for _ in stride(from: worker, to: count, by: concurrency) {
                do {
                    if try await client.send(.init(.get, url)).status != 200 { failed += 1 }
                } catch {
                    failed += 1
                }
            }
            return failed
        }
    }
    var total = 0
    for await failed in group { total += failed }
    return total
}
let elapsed = ContinuousClock.now - started
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print(
    String(
        format: "requests=%d failures=%d seconds=%.2f rps=%.0f cpu_seconds=%.2f live_handles=%d rss_growth_mb=%.1f", count, failures,
        seconds, Double(count) / seconds, cpuSeconds() - cpuBefore, client.liveHandles,
        Double(residentBytes() - residentBefore) / 1_048_576))
client.shutdown()
