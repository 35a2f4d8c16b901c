#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IP address (4 or 16 bytes) or a network in CIDR notation, for `PARLEY_TRUSTED_PROXIES`.
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
        guard address.count == prefix.count else { return false }
        var remaining = length
        for index in prefix.indices where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if address[index] & mask != prefix[index] & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// The address's bytes (IPv4-mapped IPv6 as IPv4), or nil when it is not an IP address.
    public static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4.s_addr) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
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
