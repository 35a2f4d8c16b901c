import ByteCoding
import ParleyCore

/// The file fields of a FILE message (API.md §5.2): `file`, `thumbnails`, `require_auth`.
public struct FileAttachmentDTO {
    let file: FileAttachment

    public init(file: FileAttachment) {
        self.file = file
    }

    public func writeFields(to json: inout JSONWriter) {
        let links = FileLinks.current ?? FileLinks(baseURL: "", keys: nil, holder: nil, now: 0)
        json.key("file")
        json.object { json in
            if let fileID = file.fileID {
                json.field("url", links.urls(fileID: fileID, requireAuth: file.requireAuth).url)
            } else {
                json.field("url", file.url ?? "")
            }
            json.field("name", file.name)
            json.field("type", file.type)
            json.field("size", file.size)
        }
        json.key("thumbnails")
        json.array { json in
            for (index, thumbnail) in file.thumbnails.enumerated() {
                guard let fileID = file.fileID else { continue }
                let urls = links.urls(fileID: fileID, thumbnail: index + 1, requireAuth: file.requireAuth)
                json.object { json in
                    json.field("url", urls.url)
                    json.field("plain_url", urls.plain)
                    json.field("width", thumbnail.width)
                    json.field("height", thumbnail.height)
                    json.field("real_width", thumbnail.realWidth)
                    json.field("real_height", thumbnail.realHeight)
                }
            }
        }
        json.field("require_auth", file.requireAuth)
    }
}
