import Foundation
import Logging
import ParleyCore

/// Makes an upload's thumbnails and stores them encrypted beside it. Anything that goes wrong
/// (not really an image, too many pixels, too slow, ffmpeg failing) leaves the file without
/// thumbnails rather than failing the upload.
///
/// Decoding waits for its turn at `gate`, at the cost `DecodeCost` reads from the header: the
/// pixels decoded at once stay within a budget, and one user's uploads take turns with everyone
/// else's instead of holding every worker (issue 29).
struct ThumbnailMaker: Sendable {
    let storage: FileStorage
    let keyring: FileKeyring
    let settings: FileSettings
    let ffmpegSlots: ProcessSlots
    let gate: FairGate
    let logger: Logger

    func make(for upload: FileUpload, boxes: [ThumbnailBox], owner: String) async -> [ThumbnailInfo] {
        guard let source = upload.source, let kind = upload.sniffed else { return [] }
        let fileID = upload.fileID
        let storage = storage
        let keyring = keyring
        let settings = settings
        let started = ContinuousClock.now
        defer { FileMetrics.thumbnailTime.record(duration: ContinuousClock.now - started) }
        do {
            let image: [UInt8]
            switch kind {
            case .image: image = source
            case .video:
                // At most `ffmpegSlots` ffmpeg processes at once; a video that waits past the time
                // limit for one is stored without thumbnails.
                let frame = try await ffmpegSlots.withSlot(patience: .seconds(settings.thumbnailTimeLimitSeconds)) {
                    try await BlockingWork.run {
                        try VideoFrameExtractor(ffmpegPath: settings.ffmpegPath, timeLimitSeconds: settings.thumbnailTimeLimitSeconds)
                            .firstFrame(of: source)
                    }
                }
                guard let frame else {
                    FileMetrics.thumbnailsSkipped.increment()
                    logger.info("stored without thumbnails", metadata: ["file_id": "\(fileID)", "reason": "every ffmpeg slot stayed busy"])
                    return []
                }
                image = frame
            }
            let info = try Thumbnailer.info(of: image)
            let cost = DecodeCost.pixels(
                of: info, progressive: info.family == .jpeg && DecodeCost.isProgressiveJPEG(image), boxes: boxes)
            let patience = Duration.seconds(settings.thumbnailTimeLimitSeconds)
            let turn = try await gate.withTurn(user: owner, cost: cost, patience: patience) {
                try await BlockingWork.run {
                    let thumbnailer = Thumbnailer(maxPixels: settings.maxImagePixels, timeLimitSeconds: settings.thumbnailTimeLimitSeconds)
                    let made = try thumbnailer.thumbnails(of: image, boxes: boxes)
                    return try zip(boxes, made).enumerated().map { index, pair in
                        let (box, thumbnail) = pair
                        let writer = try storage.writer(fileID, thumbnail: index + 1, keyring: keyring)
                        try thumbnail.bytes.withUnsafeBytes { try writer.append($0) }
                        let info = ThumbnailInfo(
                            width: box.width, height: box.height, realWidth: thumbnail.width, realHeight: thumbnail.height,
                            type: thumbnail.mimeType, size: Int64(thumbnail.bytes.count)
                        )
                        return (writer, info)
                    }
                }
            }
            guard let written = turn else {
                FileMetrics.thumbnailsSkipped.increment()
                logger.info("stored without thumbnails", metadata: ["file_id": "\(fileID)", "reason": "its turn to decode did not come"])
                return []
            }
            for (index, (writer, _)) in written.enumerated() { try await storage.commit(writer, fileID, thumbnail: index + 1) }
            let made = written.map(\.1)
            FileMetrics.thumbnailsMade.increment(by: Int64(made.count))
            return made
        } catch {
            FileMetrics.thumbnailsSkipped.increment()
            logger.info("stored without thumbnails", metadata: ["file_id": "\(fileID)", "reason": "\(error)"])
            return []
        }
    }
}
