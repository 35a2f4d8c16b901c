import CVipsShim
import Foundation

/// A box a thumbnail must fit in. The image keeps its aspect ratio and is never enlarged.
public struct ThumbnailBox: Sendable, Equatable {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// The loader libvips picked for a buffer, i.e. what the bytes really are (not what the client claimed).
public enum ImageFamily: Sendable, Equatable {
    case jpeg, png, webp, gif, heif, tiff, other
}

/// What the header of an image says. Reading it decodes no pixels.
public struct ImageInfo: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let hasAlpha: Bool
    public let family: ImageFamily

    public init(width: Int, height: Int, hasAlpha: Bool, family: ImageFamily) {
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.family = family
    }
}

/// One encoded thumbnail, with its real size (at most the box, less when the source was smaller).
public struct Thumbnail: Sendable {
    public let bytes: [UInt8]
    public let width: Int
    public let height: Int
    public let mimeType: String

    public init(bytes: [UInt8], width: Int, height: Int, mimeType: String) {
        self.bytes = bytes
        self.width = width
        self.height = height
        self.mimeType = mimeType
    }
}

public enum ThumbnailError: Error, Equatable {
    /// libvips could not start (only from `Thumbnailer.start`), or was never started.
    case notStarted(String)
    /// Not an image libvips will decode, or corrupt or truncated; the text is libvips' message, for logs.
    case undecodable(String)
    /// The header claims this many pixels, more than `maxPixels`. Nothing was decoded.
    case tooManyPixels(Int)
    /// Decoding and resizing took longer than `timeLimitSeconds`, and was aborted.
    case timedOut
    /// A box with a side below 1 pixel.
    case invalidBox(ThumbnailBox)
}

/// Thumbnails untrusted image uploads with libvips, in this process.
///
/// All methods block while libvips works (using up to `concurrency` threads of its own): call them
/// from a thread that may block, never from an event loop.
public struct Thumbnailer: Sendable {
    /// Largest width × height a source image may have; larger images are refused before decoding.
    public let maxPixels: Int
    /// Budget for one `thumbnails(of:boxes:)` call, all boxes together.
    public let timeLimitSeconds: Double

    /// Initialises libvips. Call once at start-up, before any other use; later calls do nothing
    /// (the first call's settings stay). `cacheMaxBytes` 0 (recommended) turns libvips' operation
    /// cache off: it never hits for uploads, see parley_vips.c. `concurrency` is libvips' worker
    /// threads per image (0: one per core).
    public static func start(cacheMaxBytes: Int = 0, cacheMaxFiles: Int = 0, concurrency: Int) throws {
        let rc = parley_vips_start(
            max(0, cacheMaxBytes), Int32(clamping: max(0, cacheMaxFiles)),
            Int32(clamping: max(0, concurrency)))
        guard rc == PARLEY_VIPS_OK else { throw ThumbnailError.notStarted(lastError()) }
    }

    public init(maxPixels: Int, timeLimitSeconds: Double) {
        self.maxPixels = maxPixels
        self.timeLimitSeconds = timeLimitSeconds
    }

    /// What the header of `bytes` says, decoding no pixels.
    public static func info(of bytes: [UInt8]) throws -> ImageInfo {
        try bytes.withUnsafeBytes { try header(of: $0).get() }
    }

    private static func header(of buffer: UnsafeRawBufferPointer) -> Result<ImageInfo, ThumbnailError> {
        var header = parley_vips_header()
        switch parley_vips_probe(buffer.baseAddress, buffer.count, &header) {
        case PARLEY_VIPS_OK:
            return .success(
                ImageInfo(
                    width: Int(header.width), height: Int(header.height),
                    hasAlpha: header.has_alpha != 0, family: ImageFamily(header.family)))
        case PARLEY_VIPS_NOT_STARTED:
            return .failure(.notStarted("Thumbnailer.start was not called"))
        default:
            // Read (and so clear) the message, so it is not blamed on a later call.
            return .failure(.undecodable(lastError()))
        }
    }

    /// One thumbnail per box, in the order of `boxes`. The output keeps the source's family where
    /// that makes sense: JPEG → JPEG, PNG → PNG, WebP → WebP, any other with alpha → PNG, the rest
    /// (GIF, HEIF, TIFF without alpha) → JPEG. Only the first frame of animations is used.
    ///
    /// Only the largest thumbnail is made from the upload. Decoding the upload is most of the cost
    /// (even with JPEG's shrink-on-load the whole file is entropy-decoded), so each smaller one is
    /// made from that first thumbnail instead, which looks the same at a fraction of the time; a box
    /// the image already fits whole reuses it as is.
    public func thumbnails(of bytes: [UInt8], boxes: [ThumbnailBox]) throws -> [Thumbnail] {
        let clock = ContinuousClock()
        // Clamped so that a configured infinity or NaN cannot trap in Duration.
        let budget = timeLimitSeconds.isNaN ? 0 : min(max(timeLimitSeconds, 0), 86_400)
        let deadline = clock.now.advanced(by: .seconds(budget))

        for box in boxes where box.width < 1 || box.height < 1 {
            throw ThumbnailError.invalidBox(box)
        }
        // The buffer goes to C by pointer, never copied; libvips reads it in place.
        let info = try Self.info(of: bytes)
        let (pixels, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        guard !overflow, pixels <= maxPixels else {
            throw ThumbnailError.tooManyPixels(overflow ? Int.max : pixels)
        }
        let (format, mimeType) = Self.output(for: info)

        func make(_ box: ThumbnailBox, from source: [UInt8]) throws -> Thumbnail {
            let remaining = deadline - clock.now
            guard remaining > .zero else { throw ThumbnailError.timedOut }
            var out = parley_vips_output()
            let rc = source.withUnsafeBytes { buffer in
                parley_vips_thumbnail(
                    buffer.baseAddress, buffer.count,
                    Int32(clamping: box.width), Int32(clamping: box.height), format,
                    UInt64(max(0, maxPixels)), remaining.seconds, &out)
            }
            switch rc {
            case PARLEY_VIPS_OK:
                defer { parley_vips_free(out.data) }
                let encoded = [UInt8](UnsafeBufferPointer(start: out.data, count: out.length))
                return Thumbnail(bytes: encoded, width: Int(out.width), height: Int(out.height), mimeType: mimeType)
            case PARLEY_VIPS_TOO_MANY_PIXELS:
                throw ThumbnailError.tooManyPixels(pixels)
            case PARLEY_VIPS_TIMED_OUT:
                _ = Self.lastError()
                throw ThumbnailError.timedOut
            case PARLEY_VIPS_NOT_STARTED:
                throw ThumbnailError.notStarted("Thumbnailer.start was not called")
            default:
                throw ThumbnailError.undecodable(Self.lastError())
            }
        }

        // Largest box first, so that the smaller ones can be made from it.
        func area(_ box: ThumbnailBox) -> Int { min(box.width, Int(Int32.max)) * min(box.height, Int(Int32.max)) }
        let order = boxes.indices.sorted { area(boxes[$0]) > area(boxes[$1]) }
        var results = [Thumbnail?](repeating: nil, count: boxes.count)
        var base: Thumbnail?  // the largest thumbnail made from the upload so far
        for index in order {
            let box = boxes[index]
            let result: Thumbnail
            if let base, box.width >= base.width, box.height >= base.height,
                base.width * base.height == pixels || box.width == base.width || box.height == base.height
            {
                // Fitting this box gives exactly base's size: base is the whole image (never
                // enlarged), or base already touches this box's sides.
                result = base
            } else if let base, base.width * base.height < pixels, box.width <= base.width || box.height <= base.height {
                // base is a reduction, and this box needs a further one (some side is not longer than
                // base's, so its scale is not above base's): make it from base.
                result = try make(box, from: base.bytes)
            } else {
                result = try make(box, from: bytes)
                if result.width * result.height > (base.map { $0.width * $0.height } ?? 0) { base = result }
            }
            results[index] = result
        }
        return results.map { $0! }
    }

    private static func output(for info: ImageInfo) -> (format: Int32, mimeType: String) {
        switch info.family {
        case .jpeg: return (PARLEY_VIPS_FORMAT_JPEG, "image/jpeg")
        case .png: return (PARLEY_VIPS_FORMAT_PNG, "image/png")
        case .webp: return (PARLEY_VIPS_FORMAT_WEBP, "image/webp")  // WebP keeps alpha itself
        case .gif, .heif, .tiff, .other:
            return info.hasAlpha ? (PARLEY_VIPS_FORMAT_PNG, "image/png") : (PARLEY_VIPS_FORMAT_JPEG, "image/jpeg")
        }
    }

    /// libvips' pending error text (cleared by reading it).
    private static func lastError() -> String {
        var text = [CChar](repeating: 0, count: 1024)
        let n = parley_vips_last_error(&text, text.count)
        let message = String(decoding: text[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return message.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension ImageFamily {
    fileprivate init(_ family: Int32) {
        switch family {
        case PARLEY_VIPS_FAMILY_JPEG: self = .jpeg
        case PARLEY_VIPS_FAMILY_PNG: self = .png
        case PARLEY_VIPS_FAMILY_WEBP: self = .webp
        case PARLEY_VIPS_FAMILY_GIF: self = .gif
        case PARLEY_VIPS_FAMILY_HEIF: self = .heif
        case PARLEY_VIPS_FAMILY_TIFF: self = .tiff
        default: self = .other
        }
    }
}

extension Duration {
    fileprivate var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
