import Foundation

/// This test process's memory, from /proc/self/status (the servers under test run in it).
enum ProcessMemory {
    /// The resident size now (VmRSS), in bytes.
    static func residentBytes() -> Int {
        field("VmRSS:")
    }

    /// The peak resident size (VmHWM), in bytes; `reset` starts a new peak (for the whole
    /// process: suites that reset it must not run at the same time).
    static func peakResidentBytes(reset: Bool = false) -> Int {
        if reset { try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8) }
        return field("VmHWM:")
    }

    /// Another process's resident size (a `parley serve` the test started), in bytes.
    static func residentBytes(of pid: pid_t) -> Int {
        field("VmRSS:", of: "\(pid)")
    }

    /// A line of /proc/<process>/status in kB, in bytes.
    private static func field(_ name: String, of process: String = "self") -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(name) } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
}
