import Foundation
import ParleyFiles

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program to its end (blocking the thread) through `ChildProcess`, not Foundation's
/// `Process`, which crashes now and then on Linux when many descriptors are open (see
/// ChildProcess). Returns how it ended and, when `capture`, what it wrote to stdout and stderr.
func runProgram(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, capture: Bool = false
) throws -> (termination: ChildProcess.Termination, output: String) {
    guard capture else {
        return (try ChildProcess.spawn(executable, arguments, environment: environment).wait(), "")
    }
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw TestFailure("pipe failed") }
    defer { close(ends[0]) }
    let child: ChildProcess
    do {
        child = try ChildProcess.spawn(executable, arguments, environment: environment, standardOutput: ends[1], standardError: ends[1])
        close(ends[1])
    } catch {
        close(ends[1])
        throw error
    }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        output += buffer[0..<count]
    }
    return (child.wait(), String(decoding: output, as: UTF8.self))
}
