import Foundation
import ParleyKit
import Testing

/// The parley-chat example, run as a user would: it signs in, opens a 1-to-1 channel with Bob,
/// sends each line typed, and ends at the end of its input.
@Suite struct ExampleTests {
    @Test func parleyChatSendsWhatIsTyped() async throws {
        let server = try await ParleyServer()
        let (aliceId, aliceToken) = try await server.user("alice")
        let (bob, bobId) = try await server.connected("bob")
        let heard = Recorder()
        bob.addChannelDelegate(heard, identifier: "test")

        // `swift test` builds the example beside the test bundle.
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("parley-chat")
        let example =
            FileManager.default.fileExists(atPath: binary.path)
            ? binary
            : URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/parley-chat")
        #expect(FileManager.default.isExecutableFile(atPath: example.path), "no example at \(example.path)")
        let process = Process()
        process.executableURL = example
        process.arguments = ["--server", server.baseURL.absoluteString, "--user", aliceId, "--token", aliceToken, "--with", bobId]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("hello from the example\nand goodbye\n".utf8))
        #expect(await eventually { heard.received.map(\.message) == ["hello from the example", "and goodbye"] })
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed.contains("signed in as Alice"), "\(printed)")
        await bob.disconnect()
        server.stop()
    }
}
