import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting

/// A binary response: status, headers and the exact bytes.
struct BinaryResponse {
    let status: Int
    let headers: HTTPFields
    let bytes: [UInt8]

    subscript(_ name: String) -> String? { headers[HTTPField.Name(name)!] }
}

/// One part of a multipart/form-data body.
struct FormFile {
    var name = "file"
    var fileName = "upload.bin"
    var contentType: String? = "application/octet-stream"
    var bytes: [UInt8]
}

extension API {
    /// Sends a multipart/form-data upload to a channel's messages endpoint (`kind`: the path
    /// segment of the channel's kind; `resource`: `scheduled_messages` for a scheduled upload).
    func upload(
        _ channelURL: String, _ fields: [String: String] = [:], file: FormFile?, as credential: Credential = .admin,
        kind: String = "group_channels", resource: String = "messages", headers extra: HTTPFields = [:]
    ) async throws -> APIResponse {
        let boundary = "parley-test-\(UUID().uuidString)"
        var body: [UInt8] = []
        func add(_ text: String) { body.append(contentsOf: Array(text.utf8)) }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            add("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        if let file {
            add("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.fileName)\"\r\n")
            if let type = file.contentType { add("Content-Type: \(type)\r\n") }
            add("\r\n")
            body.append(contentsOf: file.bytes)
            add("\r\n")
        }
        add("--\(boundary)--\r\n")
        let response = try await bytes(
            .post, "/v3/\(kind)/\(channelURL)/\(resource)", body: body,
            headers: extra.merging([.contentType: "multipart/form-data; boundary=\(boundary)"]), as: credential
        )
        return APIResponse(status: response.status, headers: response.headers, text: String(decoding: response.bytes, as: UTF8.self))
    }

    /// Any request, with the body and the answer as bytes.
    func bytes(
        _ method: HTTPRequest.Method, _ path: String, body: [UInt8]? = nil, headers extra: HTTPFields = [:],
        as credential: Credential = .none
    ) async throws -> BinaryResponse {
        var headers = extra
        credential.apply(to: &headers)
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
        return BinaryResponse(status: Int(response.status.code), headers: response.headers, bytes: Array(buffer: response.body))
    }

    /// Downloads a file URL from a message (absolute, on the test public address) without other credentials.
    func download(_ url: String, headers: HTTPFields = [:], as credential: Credential = .none) async throws -> BinaryResponse {
        try await bytes(.get, String(url.dropFirst("http://files.test".count)), headers: headers, as: credential)
    }
}

/// Images and videos made with ffmpeg, once per test process.
enum Media {
    private static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("parley-test-media-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Runs ffmpeg with `arguments` writing `name`, and returns the file's bytes. Each call
    /// writes a file of its own: tests running at the same time ask for the same images.
    static func ffmpeg(_ name: String, _ arguments: [String]) throws -> [UInt8] {
        let output = folder.appendingPathComponent("\(UUID().uuidString)-\(name)")
        let ended = try runProgram("/usr/bin/env", ["ffmpeg", "-nostdin", "-y", "-loglevel", "error"] + arguments + [output.path])
        guard ended.termination == .exited(0) else { throw TestFailure("ffmpeg failed making \(name)") }
        return Array(try Data(contentsOf: output))
    }

    /// A progressive JPEG (libvips' CLI, `libvips-tools`): decoding one needs its whole image in
    /// memory, whatever the box it is shrunk to (about 350 MB for 10000 × 9990).
    static func progressiveJPEG(_ width: Int, _ height: Int) throws -> [UInt8] {
        let png = folder.appendingPathComponent("\(UUID().uuidString)-\(width)x\(height).png")
        try Data(try ffmpeg("\(width)x\(height).png", ["-f", "lavfi", "-i", "testsrc=size=\(width)x\(height)", "-frames:v", "1"])).write(
            to: png)
        let output = folder.appendingPathComponent("\(UUID().uuidString)-progressive.jpg")
        let ended = try runProgram("/usr/bin/env", ["vips", "copy", png.path, output.path + "[interlace,Q=30]"])
        guard ended.termination == .exited(0) else { throw TestFailure("vips failed making a progressive JPEG") }
        return Array(try Data(contentsOf: output))
    }

    static func jpeg(_ width: Int, _ height: Int) throws -> [UInt8] {
        try ffmpeg("\(width)x\(height).jpg", ["-f", "lavfi", "-i", "testsrc=size=\(width)x\(height)", "-frames:v", "1"])
    }

    static func pngWithAlpha(_ width: Int, _ height: Int) throws -> [UInt8] {
        try ffmpeg(
            "\(width)x\(height)-alpha.png",
            [
                "-f", "lavfi", "-i", "color=c=red@0.5:size=\(width)x\(height),format=rgba", "-frames:v", "1", "-pix_fmt", "rgba"
            ])
    }

    static func video() throws -> [UInt8] {
        try ffmpeg("clip.mp4", ["-f", "lavfi", "-i", "testsrc=size=640x480:rate=10", "-t", "1", "-pix_fmt", "yuv420p"])
    }

    /// A valid PNG header that claims `width`×`height` pixels, with almost no image data.
    static func pngBomb(_ width: UInt32, _ height: UInt32) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        // A zlib stream of a few zero bytes: decoding would need width × height × 3 bytes.
        let idat: [UInt8] = [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// Random bytes (not an image, whatever the label says).
    static func random(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255) }
    }
}

extension HTTPFields {
    /// These fields with `other`'s set over them.
    func merging(_ other: HTTPFields) -> HTTPFields {
        var merged = self
        for field in other { merged[field.name] = field.value }
        return merged
    }
}
