import Foundation

/// Nanoseconds on the monotonic clock: sends are stamped and receipts timed by the same process,
/// so the latency needs no wall clock (which may step) and no clock shared with the server.
@inline(__always)
func monotonicNanos() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// This process's CPU time (user + system, every thread), in seconds.
func ownCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ value: timeval) -> Double { Double(value.tv_sec) + Double(value.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Another process's CPU time (user + system) from /proc/PID/stat, in seconds; 0 if it is gone.
func processCPUSeconds(_ pid: Int32) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let end = stat.lastIndex(of: ")")
    else { return 0 }
    // After the command name: state is field 3, utime and stime are fields 14 and 15.
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// A PostgreSQL cluster's CPU time in seconds: the postmaster's, its children's that have exited
/// (reaped into its cumulative times) and its live children's (the backends and workers).
func clusterCPUSeconds(_ postmaster: Int32) -> Double {
    guard postmaster > 0, let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
    var ticks = 0.0
    for entry in entries {
        guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { continue }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 14, pid == postmaster || Int32(fields[1]) == postmaster else { continue }
        ticks += fields[11...14].compactMap { Double($0) }.reduce(0, +)
    }
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// The machine's busy and total jiffies from the first line of /proc/stat: whether the two cores
/// were saturated during a measurement.
struct MachineTimes {
    let busy: Double
    let total: Double

    static func now() -> MachineTimes {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8), let line = stat.split(separator: "\n").first else {
            return MachineTimes(busy: 0, total: 0)
        }
        let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard values.count >= 5 else { return MachineTimes(busy: 0, total: 0) }
        // user nice system idle iowait irq softirq steal …: idle and iowait are the idle time.
        let total = values.prefix(8).reduce(0, +)
        return MachineTimes(busy: total - values[3] - values[4], total: total)
    }

    /// CPU seconds spent between `earlier` and self, over all cores.
    func busySeconds(since earlier: MachineTimes) -> Double {
        (busy - earlier.busy) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Percent of all cores busy between `earlier` and self.
    func busyPercent(since earlier: MachineTimes) -> Double {
        let total = self.total - earlier.total
        return total > 0 ? 100 * (busy - earlier.busy) / total : 0
    }
}

/// The nearest-rank percentile of sorted values.
func percentile<T>(_ sorted: [T], _ fraction: Double) -> T? {
    guard !sorted.isEmpty else { return nil }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}

func formatted(_ value: Double, _ decimals: Int = 2) -> String {
    String(format: "%.\(decimals)f", value)
}

/// Writes a line to stdout at once: the driver script waits for lines of a process it keeps
/// running, and stdio would hold them in its buffer.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
