import Foundation

/// The addresses outbound requests may not reach (API.md §11.2): loopback, private, link-local
/// (cloud metadata), CGNAT, benchmark, documentation, multicast, reserved and unique-local
/// ranges, checked on the IPv4 address an IPv6 one carries too (IPv4-mapped and -compatible,
/// NAT64, 6to4, Teredo), so that no spelling of an internal address gets through.
public enum AddressRules {
    /// Why `address` (text, IPv4 or IPv6) is refused, or nil when it may be reached.
    public static func refusal(_ address: String) -> String? {
        if let v4 = IPv4(address) { return refusal(v4) }
        guard let v6 = IPv6(address) else { return "not an IP address" }
        for (prefix, length, name) in refusedIPv6 where v6.matches(prefix, length) { return name }
        if let embedded = v6.embeddedIPv4, let reason = refusal(embedded) { return "\(reason) (inside \(address))" }
        return nil
    }

    static func refusal(_ address: IPv4) -> String? {
        refusedIPv4.first { address.matches($0.prefix, $0.length) }?.name
    }

    private static let refusedIPv4: [(prefix: IPv4, length: Int, name: String)] = [
        (.init(0, 0, 0, 0), 8, "this network"),
        (.init(10, 0, 0, 0), 8, "private"),
        (.init(100, 64, 0, 0), 10, "carrier-grade NAT"),
        (.init(127, 0, 0, 0), 8, "loopback"),
        (.init(169, 254, 0, 0), 16, "link-local"),
        (.init(172, 16, 0, 0), 12, "private"),
        (.init(192, 0, 0, 0), 24, "IETF protocol assignments"),
        (.init(192, 0, 2, 0), 24, "documentation"),
        (.init(192, 88, 99, 0), 24, "6to4 relay"),
        (.init(192, 168, 0, 0), 16, "private"),
        (.init(198, 18, 0, 0), 15, "benchmarking"),
        (.init(198, 51, 100, 0), 24, "documentation"),
        (.init(203, 0, 113, 0), 24, "documentation"),
        (.init(224, 0, 0, 0), 4, "multicast"),
        (.init(240, 0, 0, 0), 4, "reserved")
    ]

    private static let refusedIPv6: [(prefix: IPv6, length: Int, name: String)] = [
        (IPv6("::")!, 128, "unspecified"),
        (IPv6("::1")!, 128, "loopback"),
        (IPv6("::")!, 96, "IPv4-compatible"),
        (IPv6("100::")!, 64, "discard"),
        (IPv6("2001:db8::")!, 32, "documentation"),
        (IPv6("3fff::")!, 20, "documentation"),
        (IPv6("2001:10::")!, 28, "ORCHID"),
        (IPv6("2001:20::")!, 28, "ORCHIDv2"),
        (IPv6("fc00::")!, 7, "unique local"),
        (IPv6("fe80::")!, 10, "link-local"),
        (IPv6("fec0::")!, 10, "site-local"),
        (IPv6("ff00::")!, 8, "multicast"),
        // Local-use NAT64 translates into a network of its own, never a public destination.
        (IPv6("64:ff9b:1::")!, 48, "local NAT64")
    ]
}

/// An IPv4 address as four bytes; parsed strictly (dotted quad of decimal octets).
struct IPv4: Equatable {
    let bytes: [UInt8]

    init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) { bytes = [a, b, c, d] }
    init(bytes: [UInt8]) { self.bytes = bytes }

    init?(_ text: String) {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        bytes = withUnsafeBytes(of: address.s_addr) { Array($0) }
    }

    func matches(_ prefix: IPv4, _ length: Int) -> Bool { bitsMatch(bytes, prefix.bytes, length) }
}

/// An IPv6 address as sixteen bytes.
struct IPv6 {
    let bytes: [UInt8]

    init?(_ text: String) {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        bytes = withUnsafeBytes(of: address) { Array($0) }
    }

    func matches(_ prefix: IPv6, _ length: Int) -> Bool { bitsMatch(bytes, prefix.bytes, length) }

    /// The IPv4 address this one stands for or carries, in the forms that reach IPv4 hosts.
    var embeddedIPv4: IPv4? {
        let last4 = Array(bytes[12..<16])
        let zeros10 = bytes[0..<10].allSatisfy { $0 == 0 }
        // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated, SIIT).
        if zeros10 && bytes[10] == 0xff && bytes[11] == 0xff { return IPv4(bytes: last4) }
        if bytes[0..<8].allSatisfy({ $0 == 0 }) && bytes[8] == 0xff && bytes[9] == 0xff && bytes[10] == 0 && bytes[11] == 0 {
            return IPv4(bytes: last4)
        }
        // ::a.b.c.d (compatible, deprecated).
        if zeros10 && bytes[10] == 0 && bytes[11] == 0 && !last4.allSatisfy({ $0 == 0 }) { return IPv4(bytes: last4) }
        // 64:ff9b::/96 (NAT64, well-known prefix) and 64:ff9b:1::/48 (local-use).
        if bytes[0] == 0 && bytes[1] == 0x64 && bytes[2] == 0xff && bytes[3] == 0x9b { return IPv4(bytes: last4) }
        // 2002:AABB:CCDD::/16 (6to4).
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return IPv4(bytes: Array(bytes[2..<6])) }
        // 2001:0000::/32 (Teredo): the client's address, inverted, in the last 32 bits.
        if bytes[0] == 0x20 && bytes[1] == 0x01 && bytes[2] == 0 && bytes[3] == 0 { return IPv4(bytes: last4.map { ~$0 }) }
        return nil
    }
}

func bitsMatch(_ address: [UInt8], _ prefix: [UInt8], _ length: Int) -> Bool {
    var remaining = length
    for index in prefix.indices where remaining > 0 {
        let bits = min(8, remaining)
        let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
        if address[index] & mask != prefix[index] & mask { return false }
        remaining -= bits
    }
    return true
}
