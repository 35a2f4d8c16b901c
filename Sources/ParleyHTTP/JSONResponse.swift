import Foundation
import HTTPTypes
import Hummingbird

/// Builds `application/json` responses from `Encodable` values.
enum JSONResponse {
    static let contentType = "application/json; charset=utf-8"

    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response(
            status: status,
            headers: [.contentType: contentType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// 200 with `{}`: the answer to a successful DELETE.
    static func empty() -> Response {
        Response(status: .ok, headers: [.contentType: contentType], body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
    }
}
