/// The file service's limits and tools, with the defaults docs/CONFIGURATION.md documents.
public struct FileSettings: Sendable {
    /// Largest upload (the container sets it from `Limits.uploadBytes`); a bigger one is refused
    /// with 413 as soon as it passes this.
    public var maxUploadBytes: Int64 = 25 * 1024 * 1024
    /// Larger images and videos are stored without thumbnails: making one needs the whole
    /// source in memory.
    public var thumbnailSourceMaxBytes = 25 * 1024 * 1024
    /// What all uploads in progress together may hold of such sources; past it, uploads are
    /// stored without thumbnails rather than letting concurrent uploads grow the process.
    public var thumbnailSourceBudgetBytes = 256 * 1024 * 1024
    /// Images whose header claims more pixels are never decoded (pixel bombs).
    public var maxImagePixels = 100_000_000
    /// `PARLEY_THUMBNAIL_PIXEL_BUDGET`: the pixels (`DecodeCost`) all thumbnail jobs of this
    /// instance may decode at once; a larger image runs alone.
    public var thumbnailPixelBudget = 100_000_000
    /// `PARLEY_THUMBNAIL_JOBS_PER_USER`: one user's thumbnail jobs running at once; up to four
    /// times as many wait their turn, more are stored without thumbnails at once.
    public var thumbnailJobsPerUser = 2
    /// Thumbnail work for one upload stops after this long, and an upload that waits this long for
    /// its turn gets none: the file is kept without thumbnails.
    public var thumbnailTimeLimitSeconds = 10.0
    /// How long a file auth key works (API.md §5.3: 3 days).
    public var authKeyLifetimeMillis: Int64 = 3 * 24 * 3600 * 1000
    /// The ffmpeg that takes frames from videos.
    public var ffmpegPath = "ffmpeg"
    /// ffmpeg processes that may run at once (each decodes a video in memory).
    public var ffmpegConcurrency = 2

    public init() {}
}
