/// An IP address (4 or 16 bytes) or a network in CIDR notation, for `PARLEY_TRUSTED_PROXIES`
/// (inbound: which peers are proxies; it lives beside the outbound address rules it shares
/// parsing and prefix matching with).
///
/// An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, how a dual-stack socket reports an IPv4
/// peer) is taken as the IPv4 address it carries.
public struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    let prefix: [UInt8]
    let length: Int
    public let description: String

    /// `10.0.0.0/8`, `fd00::/8`, or a single address (`127.0.0.1`, `::1`).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = Self.bytes(of: String(parts[0])) else { return nil }
        let bits = address.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), String(length) == parts[1], (0...bits).contains(length) else { return nil }
            self.length = length
        } else {
            self.length = bits
        }
        self.prefix = address
        self.description = text
    }

    public func contains(_ address: [UInt8]) -> Bool {
        address.count == prefix.count && bitsMatch(address, prefix, length)
    }

    /// The address's bytes (IPv4-mapped IPv6 as IPv4), or nil when it is not an IP address.
    public static func bytes(of text: String) -> [UInt8]? {
        if let v4 = IPv4(text) { return v4.bytes }
        guard let v6 = IPv6(text) else { return nil }
        let bytes = v6.bytes
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff { return Array(bytes[12..<16]) }
        return bytes
    }
}

extension Array where Element == IPNetwork {
    /// Whether any of these networks holds `address` (text); false for anything not an address.
    public func holds(_ address: String) -> Bool {
        guard !isEmpty, let bytes = IPNetwork.bytes(of: address) else { return false }
        return contains { $0.contains(bytes) }
    }
}
