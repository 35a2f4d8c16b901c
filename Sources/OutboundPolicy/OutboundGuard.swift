import Foundation

/// The one check every outbound request of Parley passes (API.md §11.2): http/https on ports
/// 80/443, no userinfo, no single-label, `localhost`, `.local` or `.internal` host, numeric
/// hosts only in canonical form, and every address the host resolves to allowed by
/// `AddressRules`; the request is then pinned to a checked address, so DNS cannot answer
/// differently when libcurl connects. Redirects are followed here, each hop checked again.
///
/// Hosts in `allowHosts` (`host` or `host:port`, from `PARLEY_OUTBOUND_ALLOW_HOSTS`) are exempt
/// from the port and address rules only (an internal webhook receiver, a test page).
public struct OutboundGuard: Sendable {
    public let allowHosts: Set<String>
    public let resolver: any HostResolver

    public init(allowHosts: [String] = [], resolver: any HostResolver = SystemResolver()) {
        self.allowHosts = Set(allowHosts.map { $0.lowercased() })
        self.resolver = resolver
    }

    /// Redirects followed by hand, each checked.
    public static let maxRedirects = 3

    /// Where a checked URL may be fetched: the transport connects to `host`:`port` at `address`
    /// (the address checked), whatever DNS says by then.
    public struct Destination: Sendable, Equatable {
        public let url: String
        public let host: String
        public let port: Int
        public let address: String
        /// The host as the transport names it: IPv6 literals without brackets.
        public let bareHost: String
    }

    /// Checks `text` and resolves its host; throws `OutboundRefusal` for anything §11.2 refuses,
    /// before any connection is made.
    public func check(_ text: String) async throws -> Destination {
        let target = try Self.parse(text)
        let allowed = allowHosts.contains(target.host) || allowHosts.contains("\(target.host):\(target.port)")
        if !allowed && target.port != target.defaultPort {
            throw OutboundRefusal("port \(target.port) is not 80 or 443")
        }
        let addresses: [String]
        if target.isLiteral {
            addresses = [target.bareHost]
        } else {
            addresses = try await resolver.addresses(of: target.host)
            guard !addresses.isEmpty else { throw OutboundRefusal("\(target.host) has no address") }
        }
        if !allowed {
            // Every address, not only the one used: a name that also resolves to an internal
            // address is refused whole.
            for address in addresses {
                if let reason = AddressRules.refusal(address) { throw OutboundRefusal("\(target.host) resolves to \(address) (\(reason))") }
            }
        }
        return Destination(url: target.url, host: target.host, port: target.port, address: addresses[0], bareHost: target.bareHost)
    }

    /// The URL split and checked for what needs no DNS.
    struct Target {
        let url: String
        /// Lower-cased; IPv6 literals in brackets.
        let host: String
        let port: Int
        let defaultPort: Int
        let isLiteral: Bool

        var bareHost: String { host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host }
    }

    static func parse(_ text: String) throws -> Target {
        guard text.utf8.count <= 2048, !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false })
        else { throw OutboundRefusal("not a plain URL") }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw OutboundRefusal("not a URL")
        }
        let defaultPort: Int
        switch scheme {
        case "http": defaultPort = 80
        case "https": defaultPort = 443
        default: throw OutboundRefusal("scheme \(scheme) is not http or https")
        }
        // `user@`, `:@` and the like: parsers disagree on them, and none is needed.
        if components.user != nil || components.password != nil || (components.percentEncodedHost ?? "").contains("@") {
            throw OutboundRefusal("credentials in the URL")
        }
        guard let rawHost = components.percentEncodedHost, !rawHost.isEmpty else { throw OutboundRefusal("no host") }
        let host = rawHost.lowercased()
        let port = components.port ?? defaultPort
        guard (1...65535).contains(port) else { throw OutboundRefusal("port \(port)") }
        let isLiteral: Bool
        if host.hasPrefix("[") {
            guard IPv6(String(host.dropFirst().dropLast())) != nil else { throw OutboundRefusal("bad IPv6 literal \(host)") }
            isLiteral = true
        } else {
            try checkHostName(host)
            isLiteral = IPv4(host) != nil
        }
        // Rebuilt from the parts checked, so libcurl reads the same URL this check read.
        var canonical = URLComponents()
        canonical.scheme = scheme
        canonical.percentEncodedHost = host
        canonical.port = components.port
        canonical.percentEncodedPath = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        canonical.percentEncodedQuery = components.percentEncodedQuery
        guard let url = canonical.string else { throw OutboundRefusal("not a URL") }
        return Target(url: url, host: host, port: port, defaultPort: defaultPort, isLiteral: isLiteral)
    }

    /// A DNS name of at least two labels that no resolver treats as local, or a dotted-quad
    /// IPv4 address written the one canonical way (`127.1`, `0x7f.0.0.1`, `2130706433` and
    /// `0177.0.0.1` are all 127.0.0.1 to some resolver).
    static func checkHostName(_ host: String) throws {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard host.utf8.count <= 253, labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 }) else {
            throw OutboundRefusal("malformed host \(host)")
        }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }) else {
            throw OutboundRefusal("host \(host) has characters a DNS name does not")
        }
        let looksNumeric = labels.last.map { $0.allSatisfy { $0.isHexDigit || $0 == "x" } && $0.first!.isNumber } ?? false
        if looksNumeric || labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) {
            guard let v4 = IPv4(host), v4.bytes.map(String.init).joined(separator: ".") == host else {
                throw OutboundRefusal("numeric host \(host) is not a canonical dotted quad")
            }
            return
        }
        guard labels.count >= 2 else { throw OutboundRefusal("single-label host \(host)") }
        let last = labels.last!
        if host == "localhost" || ["localhost", "local", "internal", "localdomain", "arpa"].contains(last) || host.hasSuffix(".home.arpa") {
            throw OutboundRefusal("local host name \(host)")
        }
    }
}

/// A request the outbound guard refused, and why.
public struct OutboundRefusal: Error, CustomStringConvertible, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
