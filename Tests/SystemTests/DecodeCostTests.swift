import Testing

@testable import ParleyFiles

/// What an image costs to thumbnail, from its header (issue 29).
@Suite struct DecodeCostTests {
    let huge = ImageInfo(width: 10000, height: 9990, hasAlpha: false, family: .jpeg)

    @Test func aBaselineJPEGIsDecodedShrunkForItsLargestBox() {
        // 10000 / 2048 ≈ 4.9: libvips decodes at 1/4.
        let boxes = [ThumbnailBox(width: 2048, height: 2048), ThumbnailBox(width: 100, height: 100)]
        #expect(DecodeCost.pixels(of: huge, progressive: false, boxes: boxes) == 2500 * 2497 + 2048 * 2048 + 100 * 100)
        // A box the image nearly fits gains nothing.
        #expect(DecodeCost.pixels(of: huge, progressive: false, boxes: [.init(width: 8192, height: 8192)]) == 10000 * 9990 + 8192 * 8192)
    }

    @Test func progressiveJPEGsAndOtherFormatsCostTheWholeImage() {
        let box = [ThumbnailBox(width: 100, height: 100)]
        #expect(DecodeCost.pixels(of: huge, progressive: true, boxes: box) == 10000 * 9990 + 100 * 100)
        let png = ImageInfo(width: 4000, height: 3000, hasAlpha: true, family: .png)
        #expect(DecodeCost.pixels(of: png, progressive: false, boxes: box) == 4000 * 3000 + 100 * 100)
    }

    @Test func theFrameMarkerTellsProgressiveFromBaseline() {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46]
        #expect(DecodeCost.isProgressiveJPEG([0xFF, 0xD8] + app0 + [0xFF, 0xC2, 0x00, 0x11]))
        #expect(!DecodeCost.isProgressiveJPEG([0xFF, 0xD8] + app0 + [0xFF, 0xC0, 0x00, 0x11]))
        #expect(!DecodeCost.isProgressiveJPEG([0x89, 0x50, 0x4E, 0x47, 0x0D]))
    }
}
