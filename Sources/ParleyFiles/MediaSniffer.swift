/// Recognises image and video files by their first bytes, which a client cannot mislabel.
enum MediaSniffer {
    enum Kind: Equatable {
        case image(String)
        case video(String)
    }

    /// Bytes needed to decide.
    static let prefixLength = 16

    static func kind(of prefix: [UInt8]) -> Kind? {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            prefix.count >= offset + bytes.count && Array(prefix[offset..<(offset + bytes.count)]) == bytes
        }
        if starts([0xFF, 0xD8, 0xFF]) { return .image("image/jpeg") }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .image("image/png") }
        if starts(Array("GIF8".utf8)) { return .image("image/gif") }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .image("image/webp") }
        if starts(Array("II*\0".utf8)) || starts(Array("MM\0*".utf8)) { return .image("image/tiff") }
        if starts(Array("ftyp".utf8), at: 4) {
            let brand = prefix.count >= 12 ? String(decoding: prefix[8..<12], as: UTF8.self) : ""
            if ["heic", "heix", "mif1", "msf1", "avif"].contains(brand) { return .image(brand == "avif" ? "image/avif" : "image/heic") }
            return .video(brand == "qt  " ? "video/quicktime" : "video/mp4")
        }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return .video("video/webm") }
        if starts(Array("RIFF".utf8)) && starts(Array("AVI ".utf8), at: 8) { return .video("video/x-msvideo") }
        return nil
    }
}
