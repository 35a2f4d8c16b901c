import Foundation

/// A stand-in for an outside service (`Files/s3_standin.py`, `Push/StandIn/push_standin.py`): a
/// Python process that prints one JSON line (its port, keys and files) and serves until its stdin
/// closes, which happens when this object goes or the test process ends.
final class StandInProcess: Sendable {
    private let process: Process
    private let input: Pipe
    /// The first line the stand-in printed.
    private let line: Data

    /// `script` is relative to Tests/SystemTests; `missing` says what to install when it does not start.
    init(script: String, arguments: [String] = [], quietErrors: Bool = false, missing: String) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(script).path
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", path] + arguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        if quietErrors { process.standardError = FileHandle.nullDevice }
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        guard !line.isEmpty else { throw TestFailure("\(script) did not start (\(missing))") }
        self.line = line
    }

    /// The stand-in's first line, decoded.
    func handshake<Handshake: Decodable>(_ type: Handshake.Type) throws -> Handshake {
        try JSONDecoder().decode(type, from: line)
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.terminate()
    }
}
