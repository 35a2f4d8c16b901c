import NIOCore
import Testing

@testable import HTTPWire

/// The streaming multipart parser finds every delimiter wherever the network splits the body.
@Suite struct MultipartParserTests {
    private static let boundary = "XyZ-123"
    private static let file: [UInt8] =
        Array("line one\r\n--XyZ-12 not a boundary\r\r\n-\r\nend".utf8) + (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    private static let body: [UInt8] =
        Array(
            """
            preamble to ignore\r
            --XyZ-123\r
            Content-Disposition: form-data; name="user_id"\r
            \r
            alice\r
            --XyZ-123\r
            Content-Disposition: form-data; name="file"; filename="a.bin"\r
            Content-Type: application/octet-stream\r
            \r

            """.utf8) + file
        + Array("\r\n--XyZ-123\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n--XyZ-123--\r\nepilogue".utf8)

    /// Parts as (headers, body) from feeding `pieces`.
    private func parse(_ pieces: [[UInt8]]) throws -> (parts: [([String: String], [UInt8])], complete: Bool) {
        var parser = MultipartStreamParser(boundary: Self.boundary)
        var parts: [([String: String], [UInt8])] = []
        for piece in pieces {
            try parser.feed(ByteBuffer(bytes: piece)) { event in
                switch event {
                case .headers(let headers): parts.append((headers, []))
                case .body(let buffer): parts[parts.count - 1].1 += Array(buffer.readableBytesView)
                case .end: break
                }
            }
        }
        return (parts, parser.isComplete)
    }

    @Test func everySplitPointGivesTheSameParts() throws {
        for split in 1..<Self.body.count {
            let (parts, complete) = try parse([Array(Self.body[..<split]), Array(Self.body[split...])])
            #expect(complete)
            #expect(parts.count == 3, "split at \(split)")
            guard parts.count == 3 else { return }
            #expect(parts[0].0["content-disposition"] == "form-data; name=\"user_id\"")
            #expect(parts[0].1 == Array("alice".utf8))
            #expect(parts[1].0["content-type"] == "application/octet-stream")
            #expect(parts[1].1 == Self.file, "split at \(split)")
            #expect(parts[2].1.isEmpty)
        }
    }

    @Test func byteByByteFeedingWorks() throws {
        let (parts, complete) = try parse(Self.body.map { [$0] })
        #expect(complete)
        #expect(parts.map(\.1) == [Array("alice".utf8), Self.file, []])
    }

    @Test func aTruncatedBodyIsIncompleteAndBrokenHeadersThrow() throws {
        #expect(try parse([Array(Self.body.prefix(300))]).complete == false)
        #expect(throws: MultipartStreamParser.ParseError.self) {
            try parse([Array("--XyZ-123\r\nno colon here\r\n\r\nx\r\n--XyZ-123--".utf8)])
        }
        #expect(throws: MultipartStreamParser.ParseError.self) {
            try parse([Array("--XyZ-123\r\nX: ".utf8) + [UInt8](repeating: 65, count: 20_000)])
        }
    }
}
