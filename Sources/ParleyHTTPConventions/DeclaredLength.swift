import Hummingbird
import ParleyCore

/// A request's declared `Content-Length`, checked before any of the body is read: a body that
/// announces more than the route takes is refused at once with 413, instead of being read up to
/// the limit first. (A chunked body, which declares nothing, is counted as it arrives.)
public enum DeclaredLength {
    public static func check(_ request: Request, max: Int) throws {
        guard let text = request.headers[.contentLength] else { return }
        guard let length = Int64(text), length >= 0 else { throw ParleyError.malformedBody }
        if length > Int64(max) { throw ParleyError.bodyTooLarge(max: max) }
    }
}
