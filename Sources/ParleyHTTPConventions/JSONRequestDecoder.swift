import Foundation
import HTTPWire
import Hummingbird
import ParleyCore

/// Decodes JSON request bodies for `request.decode(as:context:)`, with the checks and error codes
/// of API.md §1.5: another declared media type is 415; a declared or actual size over the
/// context's `maxUploadSize` (the JSON body limit) is 413; broken, non-strict or too deeply nested
/// JSON is 400403, checked by `JSONSyntaxGuard` before the decoder sees a byte; an empty body is
/// `{}`. A field that is absent or `null` counts as not given (declare it optional); decoding
/// errors become the codes of the field at fault (`DecodingFailure`); the checks Codable does not
/// make (U+0000, whole numbers, string maps) come with the fields that need them (`Checked`).
public struct JSONRequestDecoder: RequestDecoder {
    /// One decoder for every request: its options never change, and decoding is thread-safe.
    private static let decoder = JSONDecoder()
    private static let emptyObject = ByteBuffer(string: "{}")

    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        if let contentType = request.headers[.contentType], !Self.isJSON(contentType) {
            throw ParleyError.unsupportedMediaType(contentType)
        }
        try DeclaredLength.check(request, max: context.maxUploadSize)
        var buffer = try await request.body.collect(upTo: context.maxUploadSize)
        if buffer.readableBytes == 0 { buffer = Self.emptyObject }
        do {
            try buffer.withUnsafeReadableBytes { try JSONSyntaxGuard.check($0) }
        } catch let violation as JSONSyntaxGuard.Violation {
            throw ParleyError.invalidJSON(violation.description)
        }
        do {
            return try Self.decoder.decode(type, from: Data(buffer: buffer, byteTransferStrategy: .noCopy))
        } catch let error as DecodingError {
            throw DecodingFailure.parleyError(error)
        }
    }

    /// `application/json` or any `+json` type, whatever the parameters.
    private static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return mediaType == "application/json" || mediaType.hasSuffix("+json")
    }
}
