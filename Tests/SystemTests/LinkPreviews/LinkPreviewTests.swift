import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import ParleyContainer
import ParleyLinkPreviews
import Synchronization
import Testing

/// Link previews (API.md §11.1, §11.2) from local pages (allowed through
/// PARLEY_OUTBOUND_ALLOW_HOSTS): the preview on the message and its `message_updated`, the
/// cache, and hostile pages: deep nesting, 50 MB, an endless stream, a redirect into a refused
/// address, an `og:image` at a refused address.
@Suite struct LinkPreviewTests {
    final class Pages: Sendable {
        let hits = Mutex<[String: Int]>([:])

        func count(_ path: String) -> Int { hits.withLock { $0[path] ?? 0 } }

        static let head = """
            <!doctype html><html><head><title>Fallback &amp; title</title>
            <meta property="og:title" content="A &quot;good&quot; page">
            <meta property="og:description" content="  What\\nit is  ">
            <meta property='og:image' content='/pics/cat.png'><meta property="og:image:width" content="640">
            <meta property="og:url" content="/canonical">
            """

        func run(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
            let router = Router()
            router.get("{page}") { request, context -> Response in
                let page = context.parameters.get("page") ?? ""
                self.hits.withLock { $0[page, default: 0] += 1 }
                return Self.answer(page)
            }
            router.get("r/{hops}") { _, context -> Response in
                let hops = Int(context.parameters.get("hops") ?? "0") ?? 0
                return Response(status: .found, headers: [.location: hops > 0 ? "/r/\(hops - 1)" : "http://10.0.0.1/"])
            }
            let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            try await app.test(.live) { client in try await body(client.port!) }
        }

        static func html(_ text: String) -> Response {
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
        }

        static func answer(_ page: String) -> Response {
            switch page {
            case "page": return html(head + "</head><body>" + String(repeating: "<p>body</p>", count: 10) + "</body></html>")
            case "nested":
                return html(
                    "<html><head>" + String(repeating: "<div>", count: 100_000) + "<meta property=\"og:title\" content=\"Deep\"></head>")
            case "huge":
                // 50 MB with no </head>: only the first MiB is read.
                let filler = ByteBuffer(repeating: UInt8(ascii: "a"), count: 50 << 20)
                var buffer = ByteBuffer(string: "<html><head><meta property=\"og:title\" content=\"Huge\">")
                buffer.writeImmutableBuffer(filler)
                return Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: buffer))
            case "endless":
                return Response(
                    status: .ok, headers: [.contentType: "text/html"],
                    body: .init { writer in
                        try await writer.write(ByteBuffer(string: "<html><head><meta property=\"og:title\" content=\"Endless\">"))
                        let chunk = ByteBuffer(repeating: UInt8(ascii: "<"), count: 64 * 1024)
                        while true { try await writer.write(chunk) }
                    })
            case "internal-image":
                return html(
                    "<head><meta property=\"og:title\" content=\"Pointing inside\"><meta property=\"og:image\" content=\"http://169.254.169.254/latest/x.png\"></head>"
                )
            case "json":
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
            default: return Response(status: .notFound)
            }
        }
    }

    static func withPreviews(
        _ adjust: @escaping @Sendable (inout Config) -> Void = { _ in },
        _ body: @escaping @Sendable (API, Pages, Int) async throws -> Void
    ) async throws {
        let pages = Pages()
        try await pages.run { port in
            try await TestServer.withAPI({ config in
                config.linkPreviews.allowHosts = ["127.0.0.1:\(port)"]
                adjust(&config)
            }) { api in try await body(api, pages, port) }
        }
    }

    @Test func aMessagesFirstLinkGetsItsPreviewAfterTheSendAndTheCacheServesTheNext() async throws {
        try await Self.withPreviews { api, pages, port in
            let cast = try await api.cast("og", 2)
            let channel = try await api.createChannel(["user_ids": [cast[0], cast[1]]])
            let reader = try await api.events(cast.tokens[cast[1]]!)
            let base = "/v3/group_channels/\(channel)/messages"
            let sent = try await api.post(
                base, ["message": "look: http://127.0.0.1:\(port)/page, and http://127.0.0.1:\(port)/nested"], as: cast.session(0))
            #expect(sent.status == 201)
            #expect(sent.rawJSON["og_tag"] == nil)
            let id = try #require(sent.rawJSON["message_id"] as? Int)
            let updated = try await reader.waitFor { $0["type"] as? String == "message_updated" }
            let tag = try #require((updated["data"] as? [String: Any])?["og_tag"] as? [String: Any])
            #expect(tag["og:title"] as? String == "A \"good\" page")
            #expect(tag["og:description"] as? String == "What\\nit is")
            #expect(tag["og:url"] as? String == "http://127.0.0.1:\(port)/canonical")
            let image = try #require(tag["og:image"] as? [String: Any])
            #expect(image["url"] as? String == "http://127.0.0.1:\(port)/pics/cat.png")
            #expect(image["width"] as? Int == 640)
            let read = try await api.get("\(base)/\(id)", as: cast.session(1))
            #expect((read.rawJSON["og_tag"] as? [String: Any])?["og:title"] as? String == "A \"good\" page")
            #expect(pages.count("nested") == 0, "only the first link")
            // Within the hour the same link is not fetched again.
            _ = try await api.post(base, ["message": "again http://127.0.0.1:\(port)/page"], as: cast.session(0))
            #expect(try await eventually { reader.frames.filter { $0["type"] as? String == "message_updated" }.count == 2 })
            #expect(pages.count("page") == 1)
            reader.close()
        }
    }

    @Test func hostilePagesGiveBoundedPreviewsOrNone() async throws {
        try await Self.withPreviews { api, pages, port in
            let cast = try await api.cast("oghostile", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            let base = "/v3/group_channels/\(channel)/messages"
            func preview(_ path: String) async throws -> [String: Any]? {
                let sent = try await api.post(base, ["message": "http://127.0.0.1:\(port)\(path)"], as: cast.session(0))
                let id = try #require(sent.rawJSON["message_id"] as? Int)
                var tag: [String: Any]?
                _ = try await eventually(within: .seconds(15)) {
                    tag = try await api.get("\(base)/\(id)").rawJSON["og_tag"] as? [String: Any]
                    return tag != nil
                }
                return tag
            }
            let started = ContinuousClock.now
            #expect(try await preview("/nested")?["og:title"] as? String == "Deep")
            #expect(try await preview("/huge")?["og:title"] as? String == "Huge")
            #expect(try await preview("/endless")?["og:title"] as? String == "Endless")
            #expect(ContinuousClock.now - started < .seconds(30))
            let inside = try await preview("/internal-image")
            #expect(inside?["og:title"] as? String == "Pointing inside")
            #expect(inside?["og:image"] is NSNull, "an og:image at a refused address is left out")
            // A redirect chain into a refused address, and a page that is not HTML: no preview.
            for path in ["/r/2", "/json"] {
                let sent = try await api.post(base, ["message": "see http://127.0.0.1:\(port)\(path)"], as: cast.session(0))
                let id = try #require(sent.rawJSON["message_id"] as? Int)
                try await Task.sleep(for: .seconds(1))
                #expect(try await api.get("\(base)/\(id)").rawJSON["og_tag"] == nil, "\(path)")
            }
            #expect(try await eventually { pages.count("json") == 1 }, "the page was fetched, and not previewed")
        }
    }

    @Test func previewsCanBeTurnedOffAndInternalLinksAreNeverFetched() async throws {
        try await Self.withPreviews({ $0.linkPreviews.enabled = false }) { api, pages, port in
            let cast = try await api.cast("ogoff", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            _ = try await api.post(
                "/v3/group_channels/\(channel)/messages", ["message": "http://127.0.0.1:\(port)/page"], as: cast.session(0))
            try await Task.sleep(for: .seconds(1))
            #expect(pages.count("page") == 0)
        }
        // Without the preview allow list, the local page is an internal address; also when the
        // operator allows it for their own destinations (issue 50.3: an allowed internal host's
        // title and description would be read back to the user).
        let pages = Pages()
        try await pages.run { port in
            try await TestServer.withAPI({ $0.outboundAllowHosts = ["127.0.0.1:\(port)"] }) { api in
                let cast = try await api.cast("oginternal", 1)
                let channel = try await api.createChannel(["user_ids": [cast[0]]])
                _ = try await api.post(
                    "/v3/group_channels/\(channel)/messages", ["message": "http://127.0.0.1:\(port)/page"], as: cast.session(0))
                try await Task.sleep(for: .seconds(1))
                #expect(pages.count("page") == 0)
            }
        }
    }

    /// The hostile forms of API.md §11.2 that need no DNS, aimed at the local page server (which
    /// only `127.0.0.1:port` is allowed to reach) through the preview path: none is fetched, none
    /// gets a preview. (Every form, DNS answers included, is refused by the guard itself in
    /// OutboundGuardTests; this shows previews go through it.)
    @Test func hostileLinksInMessagesAreNeverFetched() async throws {
        try await Self.withPreviews { api, pages, port in
            let cast = try await api.cast("oglinks", 1)
            let channel = try await api.createChannel(["user_ids": [cast[0]]])
            let base = "/v3/group_channels/\(channel)/messages"
            let hostile = [
                "http://127.1:\(port)/page", "http://0x7f.0.0.1:\(port)/page", "http://2130706433:\(port)/page",
                "http://0177.0.0.1:\(port)/page", "http://127.0.0.01:\(port)/page", "http://[::ffff:127.0.0.1]:\(port)/page",
                "http://[::ffff:7f00:1]:\(port)/page", "http://[::1]:\(port)/page", "http://[64:ff9b::7f00:1]:\(port)/page",
                "http://[2002:7f00:1::]:\(port)/page", "http://localhost:\(port)/page", "http://user:pw@127.0.0.1:\(port)/page",
                "http://127.0.0.1:\(port + 1)/page", "http://0.0.0.0:\(port)/page", "http://169.254.169.254/latest/meta-data/",
                "http://10.0.0.1/", "http://[fe80::1]/"
            ]
            var ids: [Int] = []
            for url in hostile {
                let sent = try await api.post(base, ["message": "see \(url)"], as: cast.session(0))
                ids.append(try #require(sent.rawJSON["message_id"] as? Int))
            }
            // A good link after them: once its preview is there, theirs have been tried.
            let good = try await api.post(base, ["message": "http://127.0.0.1:\(port)/page"], as: cast.session(0))
            let goodID = try #require(good.rawJSON["message_id"] as? Int)
            #expect(
                try await eventually(within: .seconds(15)) { try await api.get("\(base)/\(goodID)").rawJSON["og_tag"] != nil })
            try await Task.sleep(for: .milliseconds(500))
            #expect(pages.count("page") == 1, "only the good link reached the page")
            for (id, url) in zip(ids, hostile) {
                #expect(try await api.get("\(base)/\(id)").rawJSON["og_tag"] == nil, "\(url)")
            }
        }
    }

    @Test func theHeadScannerReadsTagsInOnePass() {
        let tag = HeadScanner.scan(Array((Pages.head + "</head><meta property=\"og:title\" content=\"late\">").utf8))
        #expect(tag.title == "A \"good\" page")
        #expect(tag.image?.url == "/pics/cat.png")
        let fallback = HeadScanner.scan(
            Array("<head><title>Only &#x26; &#38; a<b>title</b></title><meta name=description content=plain></head>".utf8))
        #expect(fallback.title == "Only & & atitle")
        #expect(fallback.description == "plain")
        let long = HeadScanner.scan(Array("<head><title>\(String(repeating: "x", count: 5000))</title>".utf8))
        #expect(long.title?.count == HeadScanner.maxTitle)
        // Unclosed quotes, stray brackets and comments end cleanly.
        _ = HeadScanner.scan(Array("<head><meta content=\"<!-- <meta".utf8))
        _ = HeadScanner.scan(Array("<<<<>>>><!--".utf8))
    }
}
