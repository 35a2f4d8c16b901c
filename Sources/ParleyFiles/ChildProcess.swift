import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program started with `posix_spawn`, its standard descriptors given, every other
/// descriptor closed in the child.
///
/// Not Foundation's `Process`: on Linux (swift-corelibs-foundation in Swift 6.3.1) `run()`
/// reads `/proc/self/fd` past the end of a directory entry and crashes the whole process now and
/// then, the more likely the more descriptors are open
/// (swiftlang/swift-corelibs-foundation#5472) — and a server holding thousands of event-stream
/// sockets has very many.
public struct ChildProcess: Sendable {
    public let pid: pid_t

    /// The outcome of a finished child.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Starts `executable` (a path). `standardInput`/`Output`/`Error` become the child's 0, 1, 2
    /// (nil: /dev/null); the caller still owns and closes them. `environment` nil: this
    /// process's.
    public static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        standardInput: Int32? = nil, standardOutput: Int32? = nil, standardError: Int32? = nil
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (source, target) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        // Nothing else of this process (sockets, database connections) reaches the child.
        guard let closeFrom = addCloseFrom, closeFrom(&actions, 3) == 0 else {
            throw ChildProcessError("posix_spawn_file_actions_addclosefrom_np is not available")
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environmentStrings = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { environmentStrings.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, environmentStrings)
        guard result == 0 else { throw ChildProcessError("\(executable): \(String(cString: strerror(result)))") }
        return ChildProcess(pid: pid)
    }

    /// Its termination once it has ended (reaping it), nil while it runs.
    public func poll() -> Termination? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return Self.termination(status)
    }

    /// Waits for it to end (blocking the thread).
    public func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return Self.termination(status)
    }

    public func kill(_ signal: Int32 = SIGKILL) {
        _ = Glibc.kill(pid, signal)
    }

    private static func termination(_ status: Int32) -> Termination {
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
        status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
    }

    /// glibc ≥ 2.34 has it, behind _GNU_SOURCE in <spawn.h>, which Glibc's Swift module does not
    /// export: look the symbol up.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0) /* RTLD_DEFAULT */, "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()
}

public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
