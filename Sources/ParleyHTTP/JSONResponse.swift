import HTTPTypes
import Hummingbird

/// Builds `application/json` responses.
enum JSONResponse {
    static let contentType = "application/json; charset=utf-8"
    /// Built and validated once; each response copies it.
    static let headers: HTTPFields = [.contentType: contentType]

    static func make(_ value: some JSONWritable, status: HTTPResponse.Status = .ok) -> Response {
        var json = JSONWriter()
        value.write(to: &json)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: json.buffer))
    }

    /// A bare string map, as the metadata endpoints answer.
    static func make(_ map: [String: String], status: HTTPResponse.Status = .ok) -> Response {
        make(StringMapJSON(map: map), status: status)
    }

    /// 200 with `{}`: the answer to a successful DELETE.
    static func empty() -> Response {
        Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: "{}")))
    }
}
