import Foundation
import HTTPTypes
import NIOCore
import OutboundPolicy
import ParleyCore

/// Who the client is when reverse proxies stand in front (`PARLEY_TRUSTED_PROXIES`).
///
/// `Forwarded` (RFC 7239) or else `X-Forwarded-For`/`X-Forwarded-Proto` are read only when the
/// TCP peer is a trusted proxy, and the address chain is walked from the nearest hop back: each
/// trusted hop vouches for the one before it, and the first untrusted hop is the client. A client
/// that sends its own `X-Forwarded-For` through the proxy only adds hops the walk never reaches;
/// one that connects directly is its TCP address, whatever it sends.
public struct ForwardedClient: Sendable {
    public let trusted: [IPNetwork]

    public init(trusted: [IPNetwork]) {
        self.trusted = trusted
    }

    public struct Origin: Equatable {
        public internal(set) var address: String
        public internal(set) var scheme: String
    }

    public static let forwarded = HTTPField.Name("Forwarded")!
    public static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    public static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!

    public func origin(peer: SocketAddress?, headers: HTTPFields) -> Origin {
        var origin = Origin(address: peer?.ipAddress ?? "-", scheme: "http")
        guard trusted.holds(origin.address) else { return origin }
        let (hops, proto) = Self.forwardedChain(headers)
        for hop in hops.reversed() {
            guard trusted.holds(origin.address), IPNetwork.bytes(of: hop) != nil else { break }
            origin.address = hop
        }
        if let proto = proto?.lowercased(), proto == "http" || proto == "https" { origin.scheme = proto }
        return origin
    }

    /// The hops, client first, and the protocol the nearest proxy was reached by.
    public static func forwardedChain(_ headers: HTTPFields) -> (hops: [String], proto: String?) {
        let forwarded = headers[values: Self.forwarded]
        if !forwarded.isEmpty {
            var hops: [String] = []
            var proto: String?
            for element in forwarded.joined(separator: ",").split(separator: ",") {
                for pair in element.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2 else { continue }
                    let value = unquoted(parts[1])
                    switch parts[0].lowercased() {
                    case "for": hops.append(hostOnly(value))
                    case "proto": proto = value
                    default: break
                    }
                }
            }
            return (hops, proto)
        }
        let hops = headers[values: Self.forwardedFor].joined(separator: ",").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let proto = headers[values: Self.forwardedProto].joined(separator: ",").split(separator: ",").last
            .map { $0.trimmingCharacters(in: .whitespaces) }
        return (hops, proto)
    }

    private static func unquoted(_ value: String) -> String {
        value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
    }

    /// `[2001:db8::1]:4711` → `2001:db8::1`, `192.0.2.1:80` → `192.0.2.1`; others unchanged.
    private static func hostOnly(_ node: String) -> String {
        if node.hasPrefix("["), let close = node.firstIndex(of: "]") {
            return String(node[node.index(after: node.startIndex)..<close])
        }
        let colons = node.filter { $0 == ":" }.count
        if colons == 1, let colon = node.firstIndex(of: ":") { return String(node[..<colon]) }
        return node
    }
}
