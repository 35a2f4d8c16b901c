import Metrics

/// File figures on `/metrics` (created on first use, after the server has bootstrapped its
/// metrics backend).
enum FileMetrics {
    /// Plaintext bytes of files stored (uploads that were kept).
    static let uploadBytes = Counter(label: "parley_upload_bytes_total")
    static let uploads = Counter(label: "parley_uploads_total")
    static let thumbnailsMade = Counter(label: "parley_thumbnails_total", dimensions: [("outcome", "made")])
    /// Images or videos stored without thumbnails (undecodable, too large, too slow, no ffmpeg slot).
    static let thumbnailsSkipped = Counter(label: "parley_thumbnails_total", dimensions: [("outcome", "skipped")])
    /// Time spent making one file's thumbnails.
    static let thumbnailTime = Timer(label: "parley_thumbnail_seconds")

    /// Makes every figure exist (at 0) from the start, for the dashboard's panels and `rate()`
    /// (called when the file service is built, after the metrics backend is bootstrapped).
    static func prepare() {
        _ = (uploadBytes, uploads, thumbnailsMade, thumbnailsSkipped, thumbnailTime)
    }
}
