import Foundation
import HTTPTypes
import Testing

/// API.md §5.2 and the upload issue: thumbnails fit their box, keep the aspect ratio and the
/// source's family, never upscale; videos get one from a frame; hostile "images" are stored as
/// plain files and leave the server healthy.
@Suite struct ThumbnailTests {
    private func channel(_ api: API, _ prefix: String) async throws -> (users: Cast, url: String) {
        let users = try await api.cast(prefix, 2)
        return (users, try await api.createChannel(["user_ids": [users[1]]], as: users.session(0)))
    }

    /// (box, real size, type) of each thumbnail, checked against the downloaded bytes' type.
    private func thumbnails(_ api: API, _ sent: APIResponse) async throws -> [(box: String, real: String, type: String?)] {
        var result: [(String, String, String?)] = []
        for thumbnail in try sent.decode(MessageBody.self).thumbnails ?? [] {
            let download = try await api.download(thumbnail.url)
            #expect(download.status == 200)
            #expect(download["Content-Length"] == "\(download.bytes.count)")
            result.append(
                ("\(thumbnail.width)x\(thumbnail.height)", "\(thumbnail.realWidth)x\(thumbnail.realHeight)", download["Content-Type"]))
        }
        return result
    }

    @Test func landscapePortraitAndSmallImagesFitTheirBoxesWithoutUpscaling() async throws {
        try await TestServer.withAPI { api in
            let (users, url) = try await channel(api, "thumbs")
            let boxes = ["thumbnail1": "100x100", "thumbnail2": "200x200", "thumbnail3": "400x400"]
            let landscape = try await api.upload(
                url, boxes, file: FormFile(fileName: "l.jpg", contentType: "image/jpeg", bytes: try Media.jpeg(800, 600)),
                as: users.session(0))
            #expect(landscape.status == 201, "\(landscape.text)")
            let made = try await thumbnails(api, landscape)
            #expect(made.map(\.box) == ["100x100", "200x200", "400x400"])
            #expect(made.map(\.real) == ["100x75", "200x150", "400x300"])
            #expect(made.allSatisfy { $0.type == "image/jpeg" })
            let first = try landscape.decode(MessageBody.self).thumbnails?.first
            #expect(first?.url.contains("?auth=") == true)
            #expect(first?.plainURL.contains("?auth=") == false)

            let portrait = try await api.upload(
                url, ["thumbnail1": "160x160"], file: FormFile(contentType: "image/jpeg", bytes: try Media.jpeg(300, 600)),
                as: users.session(0))
            #expect(try await thumbnails(api, portrait).map(\.real) == ["80x160"])

            let small = try await api.upload(
                url, ["thumbnail1": "200x200"], file: FormFile(contentType: "image/jpeg", bytes: try Media.jpeg(50, 40)),
                as: users.session(0))
            #expect(try await thumbnails(api, small).map(\.real) == ["50x40"], "never upscaled")
        }
    }

    @Test func aPngWithAlphaStaysPngAndAVideoGetsAFrame() async throws {
        try await TestServer.withAPI { api in
            let (users, url) = try await channel(api, "alpha")
            let png = try await api.upload(
                url, ["thumbnail1": "50x50"],
                file: FormFile(fileName: "a.png", contentType: "image/png", bytes: try Media.pngWithAlpha(200, 100)), as: users.session(0))
            let pngThumbnail = try #require(try await thumbnails(api, png).first)
            #expect(pngThumbnail.real == "50x25")
            #expect(pngThumbnail.type == "image/png")
            let link = try #require(try png.decode(MessageBody.self).thumbnails?.first?.url)
            let bytes = try await api.download(link).bytes
            #expect(bytes.count > 26 && bytes[25] == 6, "PNG colour type 6: RGBA, alpha kept")

            let video = try await api.upload(
                url, ["thumbnail1": "320x320"], file: FormFile(fileName: "clip.mp4", contentType: "video/mp4", bytes: try Media.video()),
                as: users.session(0))
            #expect(video.status == 201)
            #expect(try video.decode(MessageBody.self).file?.type == "video/mp4")
            let frame = try #require(try await thumbnails(api, video).first)
            #expect(frame.real == "320x240")
            #expect(frame.type == "image/jpeg")
        }
    }

    @Test func pixelBombsAndFakeImagesAreStoredWithoutThumbnails() async throws {
        try await TestServer.withAPI { api in
            let (users, url) = try await channel(api, "hostile")
            let bomb = Media.pngBomb(60_000, 60_000)
            let bombSent = try await api.upload(
                url, ["thumbnail1": "100x100"], file: FormFile(fileName: "bomb.png", contentType: "image/png", bytes: bomb),
                as: users.session(0))
            #expect(bombSent.status == 201, "\(bombSent.text)")
            #expect(try bombSent.decode(MessageBody.self).thumbnails?.isEmpty == true)
            #expect(try await api.download(try #require(bombSent.decode(MessageBody.self).file?.url)).bytes == bomb)

            let fake = Media.random(20_000)
            let fakeSent = try await api.upload(
                url, ["thumbnail1": "100x100"], file: FormFile(fileName: "x.png", contentType: "image/png", bytes: fake),
                as: users.session(0))
            #expect(fakeSent.status == 201)
            #expect(try fakeSent.decode(MessageBody.self).thumbnails?.isEmpty == true)
            #expect(try fakeSent.decode(MessageBody.self).file?.type == "image/png", "the declared type is kept")

            // A truncated JPEG is refused by the decoder rather than half-thumbnailed.
            let jpeg = try Media.jpeg(800, 600)
            let truncated = try await api.upload(
                url, ["thumbnail1": "100x100"], file: FormFile(contentType: "image/jpeg", bytes: Array(jpeg.prefix(jpeg.count / 3))),
                as: users.session(0))
            #expect(truncated.status == 201)
            #expect(try truncated.decode(MessageBody.self).thumbnails?.isEmpty == true)
            #expect(try await api.get("/health").status == 200)
        }
    }

    @Test func uploadsBeyondTheInMemorySourceBudgetAreStoredWithoutThumbnails() async throws {
        try await TestServer.withAPI({ $0.files.thumbnailSourceBudgetBytes = 10_000 }) { api in
            let (users, url) = try await channel(api, "budget")
            let image = try Media.jpeg(800, 600)
            #expect(image.count > 10_000)
            let sent = try await api.upload(
                url, ["thumbnail1": "100x100"], file: FormFile(contentType: "image/jpeg", bytes: image), as: users.session(0))
            #expect(sent.status == 201)
            #expect(try sent.decode(MessageBody.self).thumbnails?.isEmpty == true)
            #expect(try await api.download(try #require(sent.decode(MessageBody.self).file?.url)).bytes == image)
            // The budget comes back: a small image still gets its thumbnail.
            let small = try await api.upload(
                url, ["thumbnail1": "10x10"], file: FormFile(contentType: "image/jpeg", bytes: try Media.jpeg(40, 30)), as: users.session(0)
            )
            #expect(try small.decode(MessageBody.self).thumbnails?.count == 1)
        }
    }
}
