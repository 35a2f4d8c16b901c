import Foundation

/// The push services a Web Push endpoint may be at (issue 50.3, `PARLEY_WEBPUSH_SERVICES`).
///
/// A subscription's endpoint is a URL its user chose: without this list, any user could have the
/// server post to any address the outbound guard lets through, as often as messages reach them.
/// Browsers only ever hand out endpoints at their vendor's push service, so an endpoint elsewhere
/// is refused when it is registered and again before each push (the operator may have changed
/// the list since). A listed service is the operator's destination, like the webhook URL: it
/// passes the outbound guard with the operator's exemptions.
public struct WebPushServices: Sendable, Equatable {
    /// An origin an endpoint may have: `https://host[:port]`, or `https://*.domain` for any host
    /// under `domain`.
    struct Origin: Sendable, Equatable {
        let host: String
        let anySubdomain: Bool
        let port: Int
    }

    /// The public push services of the browsers: Chrome's (Firebase), Firefox's (Mozilla),
    /// Safari's (Apple) and Edge's (Windows Push Notification Services, a host per region).
    public static let browsers = try! WebPushServices([
        "https://fcm.googleapis.com", "https://updates.push.services.mozilla.com", "https://web.push.apple.com",
        "https://*.notify.windows.com"
    ])

    let origins: [Origin]

    /// Throws a description of the first entry that is not an https origin.
    public init(_ origins: [String]) throws {
        self.origins = try origins.map { entry in
            guard let components = URLComponents(string: entry), components.scheme?.lowercased() == "https",
                var host = components.percentEncodedHost?.lowercased(), !host.isEmpty,
                components.user == nil, components.password == nil, components.path.isEmpty || components.path == "/",
                components.query == nil
            else { throw WebPushServiceListError("\"\(entry)\" is not an https origin (https://host[:port])") }
            let anySubdomain = host.hasPrefix("*.")
            if anySubdomain { host.removeFirst(2) }
            guard !host.isEmpty, !host.contains("*") else {
                throw WebPushServiceListError("\"\(entry)\": a wildcard stands only for the whole first labels (https://*.example.com)")
            }
            return Origin(host: host, anySubdomain: anySubdomain, port: components.port ?? 443)
        }
    }

    /// Whether `endpoint` is at one of the listed services.
    public func admits(_ endpoint: String) -> Bool {
        guard let components = URLComponents(string: endpoint), components.scheme?.lowercased() == "https",
            components.user == nil, components.password == nil, let host = components.percentEncodedHost?.lowercased()
        else { return false }
        let port = components.port ?? 443
        return origins.contains { origin in
            origin.port == port && (origin.anySubdomain ? host.hasSuffix("." + origin.host) : host == origin.host)
        }
    }
}

public struct WebPushServiceListError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
