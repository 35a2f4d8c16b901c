/// What thumbnailing an image holds in memory, in pixels, from its header alone (issue 29):
/// the pixels libvips decodes plus those of the thumbnails. The compressed size says nothing:
/// a 587 KB progressive JPEG of 10000 × 9990 cost ~500 MB per upload.
enum DecodeCost {
    /// libvips decodes a JPEG already shrunk by 2, 4 or 8 (shrink-on-load): the largest of them
    /// not above the reduction the largest thumbnail needs. A progressive JPEG gains nothing
    /// from it in memory (libjpeg keeps the whole image's coefficients), nor do other formats.
    static func pixels(of info: ImageInfo, progressive: Bool, boxes: [ThumbnailBox]) -> Int {
        let whole = info.width.multipliedReportingOverflow(by: info.height)
        guard !whole.overflow else { return Int.max }
        let thumbnails = boxes.reduce(0) { $0 + min(whole.partialValue, $1.width * $1.height) }
        guard info.family == .jpeg, !progressive, !boxes.isEmpty else { return whole.partialValue + thumbnails }
        let reduction = boxes.map { max(Double(info.width) / Double($0.width), Double(info.height) / Double($0.height)) }.min()!
        let shrink = [8, 4, 2].first { Double($0) <= reduction } ?? 1
        return (info.width / shrink) * (info.height / shrink) + thumbnails
    }

    /// Whether a JPEG's frame is progressive (SOF2, SOF6, SOF10, SOF14), from its markers: read
    /// up to the first frame header, never past the first scan.
    static func isProgressiveJPEG(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return false }
        var at = 2
        while at + 3 < bytes.count {
            guard bytes[at] == 0xFF else { return false }
            let marker = bytes[at + 1]
            if marker == 0xFF {  // fill byte
                at += 1
                continue
            }
            switch marker {
            case 0xC2, 0xC6, 0xCA, 0xCE: return true
            case 0xC0, 0xC1, 0xC3, 0xC5, 0xC7, 0xC9, 0xCB, 0xCD, 0xCF, 0xDA: return false
            case 0x01, 0xD0...0xD7: at += 2  // no length
            default: at += 2 + (Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]))
            }
        }
        return false
    }
}
