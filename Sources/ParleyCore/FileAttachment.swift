import Foundation

/// The file of a FILE message (API.md §5.2): a file stored by this server (`fileID`), or a link
/// to a file hosted elsewhere (`url`).
public struct FileAttachment: Sendable, Equatable, Codable {
    /// Set for an uploaded file: the id its downloads are served under.
    public var fileID: String?
    /// Set for an external file: the link the sender gave.
    public var url: String?
    public var name: String
    public var type: String
    public var size: Int64
    /// Whether downloads need a file auth key (uploaded files only).
    public var requireAuth: Bool
    public var thumbnails: [ThumbnailInfo]

    public init(
        fileID: String? = nil, url: String? = nil, name: String, type: String, size: Int64, requireAuth: Bool,
        thumbnails: [ThumbnailInfo] = []
    ) {
        self.fileID = fileID
        self.url = url
        self.name = name
        self.type = type
        self.size = size
        self.requireAuth = requireAuth
        self.thumbnails = thumbnails
    }

    enum CodingKeys: String, CodingKey {
        case fileID = "file_id"
        case url, name, type, size
        case requireAuth = "require_auth"
        case thumbnails
    }
}

/// One thumbnail of an uploaded image or video: the box asked for and the size made.
public struct ThumbnailInfo: Sendable, Equatable, Codable {
    public var width: Int
    public var height: Int
    public var realWidth: Int
    public var realHeight: Int
    public var type: String
    public var size: Int64

    public init(width: Int, height: Int, realWidth: Int, realHeight: Int, type: String, size: Int64) {
        self.width = width
        self.height = height
        self.realWidth = realWidth
        self.realHeight = realHeight
        self.type = type
        self.size = size
    }

    enum CodingKeys: String, CodingKey {
        case width, height
        case realWidth = "real_width"
        case realHeight = "real_height"
        case type, size
    }
}

extension Validation {
    /// A media type as `type/subtype[; parameters]`: it is served as the download's
    /// Content-Type, so no control characters and a shape a header can carry.
    public static func mediaType(_ value: String, field: String) throws -> String {
        let text = try Validation.text(value, field: field, max: maxFileTypeLength)
        guard isMediaType(text) else { throw ParleyError.invalidValue(field, "must be a media type such as image/png") }
        return text
    }

    public static func isMediaType(_ text: String) -> Bool {
        let essence = text.split(separator: ";", maxSplits: 1).first ?? ""
        let parts = essence.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        let token = { (part: Substring) in
            !part.isEmpty
                && part.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || "0123456789!#$&^_.+-".unicodeScalars.contains($0))
                }
        }
        return parts.count == 2 && token(parts[0]) && token(parts[1])
            && text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }

    public static let maxThumbnails = 3
    public static let maxFileNameLength = 255
    public static let maxFileTypeLength = 128
    public static let maxFileURLLength = 2048
}
