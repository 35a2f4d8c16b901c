import ByteCoding
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ParleyCore

/// Builds `application/json` responses: hand-written (`JSONWritable`) for the resources on the
/// benchmarked read paths (messages, users, channels), `Encodable` for everything else.
public enum JSONResponse {
    public static let contentType = "application/json; charset=utf-8"
    /// Built and validated once; each response copies it. `nosniff`: no browser reads an answer
    /// (which may hold text users wrote) as anything but JSON.
    public static let headers: HTTPFields = [.contentType: contentType, .xContentTypeOptions: "nosniff"]

    /// One encoder for every response: its options never change, and encoding is thread-safe.
    /// Keys are sorted so that a map (metadata) always reads the same; slashes stay unescaped,
    /// as `JSONWriter` writes them.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    public static func make(_ value: some JSONWritable, status: HTTPResponse.Status = .ok) -> Response {
        var json = JSONWriter()
        value.write(to: &json)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: json.buffer))
    }

    /// Throws only for a value JSON cannot hold (a non-finite number), which no response has.
    public static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder.encode(value)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(data: data)))
    }

    /// 200 with `{}`: the answer to a successful DELETE.
    public static func empty() -> Response {
        Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
    }
}

extension JSONWriter {
    /// The JSON written so far, as a response body or frame payload.
    public var buffer: ByteBuffer { ByteBuffer(bytes: bytes) }
}
