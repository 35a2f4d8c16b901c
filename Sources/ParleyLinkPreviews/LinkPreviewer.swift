import CurlHTTP
import Foundation
import Logging
import OutboundPolicy
import ParleyCore
import ParleyStore

/// How link previews are made (API.md §11.1, §11.2).
public struct LinkPreviewSettings: Sendable {
    /// `PARLEY_LINK_PREVIEWS`.
    public var enabled = true
    /// Of a page, at most this is read (and never past `</head>`).
    public var maxBytes = 1 << 20
    public var connectTimeout: Duration = .seconds(3)
    public var timeout: Duration = .seconds(10)
    /// A URL's preview (or its failure) is reused this long.
    public var cacheMillis: Int64 = 3_600_000
    /// This server's own hosts: their URLs are never previewed.
    public var ownHosts: Set<String> = []
    /// `PARLEY_LINK_PREVIEW_ALLOW_HOSTS`: hosts users' links may be previewed at although the
    /// outbound guard's port and address rules refuse them (an intranet's wiki). Every user then
    /// reads those pages' titles and descriptions: the operator's destinations
    /// (`PARLEY_OUTBOUND_ALLOW_HOSTS`) are never exempt for links users choose (issue 50.3).
    public var allowHosts: [String] = []
    /// `PARLEY_LINK_PREVIEW_CONCURRENCY`: previews made at once by this instance.
    public var concurrency = 8
    /// `PARLEY_LINK_PREVIEWS_PER_USER`: one sender's previews waiting or in flight; more are dropped.
    public var perUser = 10
    /// One sender's previews in flight: a quarter of `concurrency`, so slow links of three
    /// senders still leave others a worker.
    public var runningPerUser: Int { max(1, concurrency / 4) }

    public init() {}
}

/// Makes the preview of a URL: fetched through the outbound guard (every redirect checked),
/// read up to `</head>` or `maxBytes`, only from HTML, scanned by `HeadScanner`; an `og:image`
/// or `og:url` the guard refuses is left out, so that clients are never pointed at an
/// internal address either. Previews are cached for an hour, failures too.
public struct LinkPreviewer: Sendable {
    let store: Store
    let client: CurlClient
    let outbound: OutboundGuard
    let clock: Clock
    public let settings: LinkPreviewSettings
    let logger: Logger

    public init(
        store: Store, client: CurlClient, outbound: OutboundGuard, clock: Clock, settings: LinkPreviewSettings, logger: Logger
    ) {
        self.store = store
        self.client = client
        self.outbound = outbound
        self.clock = clock
        self.settings = settings
        self.logger = logger
    }

    private static let urlPattern = try! NSRegularExpression(pattern: #"https?://[^\s<>"'`]+"#, options: [.caseInsensitive])

    /// The first http(s) URL of `text` that may be previewed, if any.
    public func firstURL(in text: String) -> String? {
        // The pattern needs "://", which most messages lack: found without bridging the text to
        // NSString and running the expression (1 % of the server's CPU under sends, profiled).
        guard settings.enabled, Self.containsSchemeSeparator(text) else { return nil }
        let whole = text as NSString
        guard let match = Self.urlPattern.firstMatch(in: text, range: NSRange(location: 0, length: whole.length)) else { return nil }
        // Closing punctuation after a link belongs to the sentence.
        let url = String(whole.substring(with: match.range).reversed().drop { ".,;:!?)]}".contains($0) }.reversed())
        guard let host = URLComponents(string: url)?.host?.lowercased(), !settings.ownHosts.contains(host) else { return nil }
        return url
    }

    static func containsSchemeSeparator(_ text: String) -> Bool {
        var matched = 0
        for byte in text.utf8 {
            switch (matched, byte) {
            case (_, UInt8(ascii: ":")): matched = 1
            case (1, UInt8(ascii: "/")): matched = 2
            case (2, UInt8(ascii: "/")): return true
            default: matched = 0
            }
        }
        return false
    }

    /// The preview of `url`, from the cache or fetched now; nil when there is none to show.
    public func preview(_ url: String) async -> OGTag? {
        let now = clock.nowMillis
        let since = now - settings.cacheMillis
        if let cached = try? await store.read({ try $0.linkPreviews.cached(url, since: since) }) {
            PreviewMetrics.cacheHits.increment()
            return cached
        }
        PreviewMetrics.fetches.increment()
        let tag = await fetch(url)
        try? await store.transaction { try $0.linkPreviews.store(url, tag, now: now) }
        return tag
    }

    private func fetch(_ url: String) async -> OGTag? {
        var request = OutboundRequest(
            .get, url, headers: [("Accept", "text/html,application/xhtml+xml")], connectTimeout: settings.connectTimeout,
            timeout: settings.timeout, maxResponseBytes: settings.maxBytes)
        request.keepsTruncatedAnswer = true
        request.stopAfter = Array("</head>".utf8)
        do {
            let response = try await client.send(request, guardedBy: outbound)
            let type = (response.header("Content-Type") ?? "").lowercased()
            guard response.status == 200, type.hasPrefix("text/html") || type.hasPrefix("application/xhtml+xml") else {
                PreviewMetrics.errors.increment()
                return nil
            }
            var tag = HeadScanner.scan(response.body)
            tag.url = await checked(tag.url, base: url)
            if var image = tag.image {
                image.url = await checked(image.url, base: url)
                image.secureURL = await checked(image.secureURL, base: url)
                tag.image = image.url == nil && image.secureURL == nil ? nil : image
            }
            return tag.isEmpty ? nil : tag
        } catch {
            PreviewMetrics.errors.increment()
            logger.debug("link preview failed", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// `link` made absolute against the page, if the guard would let a client be sent there.
    private func checked(_ link: String?, base: String) async -> String? {
        guard let link, let absolute = URL(string: link, relativeTo: URL(string: base))?.absoluteURL.absoluteString else { return nil }
        return (try? await outbound.check(absolute)) == nil ? nil : absolute
    }
}
