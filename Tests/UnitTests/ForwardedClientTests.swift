import HTTPTypes
import NIOCore
import OutboundPolicy
import ParleyCore
import Testing

@testable import ParleyHTTPConventions

/// Issue 17, point 3: whose address a request is, behind `PARLEY_TRUSTED_PROXIES` only.
@Suite struct ForwardedClientTests {
    let clients = ForwardedClient(trusted: ["10.0.0.0/8", "fd00::/8", "192.0.2.1"].map { IPNetwork($0)! })

    func origin(peer: String, _ headers: [(String, String)]) throws -> ForwardedClient.Origin {
        var fields = HTTPFields()
        for (name, value) in headers { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return clients.origin(peer: try SocketAddress(ipAddress: peer, port: 40000), headers: fields)
    }

    @Test(arguments: [
        // An untrusted peer is the client, whatever it says.
        ("203.0.113.9", [("X-Forwarded-For", "10.0.0.1")], "203.0.113.9", "http"),
        ("203.0.113.9", [("Forwarded", "for=10.0.0.1;proto=https")], "203.0.113.9", "http"),
        // A trusted proxy names the client.
        ("10.1.1.1", [("X-Forwarded-For", "198.51.100.7"), ("X-Forwarded-Proto", "https")], "198.51.100.7", "https"),
        // What the client put in front is never reached: the nearest untrusted hop wins.
        ("10.1.1.1", [("X-Forwarded-For", "6.6.6.6, 198.51.100.7")], "198.51.100.7", "http"),
        // Through two trusted proxies, over two header lines.
        ("10.1.1.1", [("X-Forwarded-For", "6.6.6.6, 198.51.100.7"), ("X-Forwarded-For", "10.2.2.2")], "198.51.100.7", "http"),
        // Garbage at the nearest hop: the proxy is all that is known.
        ("10.1.1.1", [("X-Forwarded-For", "1.2.3.4, not-an-address")], "10.1.1.1", "http"),
        ("10.1.1.1", [("X-Forwarded-Proto", "gopher")], "10.1.1.1", "http"),
        // RFC 7239, preferred over X-Forwarded-For; IPv6 in brackets with a port; quoted.
        (
            "fd00::5", [("Forwarded", #"for="[2001:db8:cafe::17]:4711";proto=https"#), ("X-Forwarded-For", "6.6.6.6")],
            "2001:db8:cafe::17", "https"
        ),
        ("192.0.2.1", [("Forwarded", "for=198.51.100.8:80, for=10.3.3.3")], "198.51.100.8", "http"),
        ("192.0.2.1", [("Forwarded", "for=unknown")], "192.0.2.1", "http"),
        // A trusted single address, and the IPv4-mapped form a dual-stack socket reports.
        ("::ffff:10.1.1.1", [("X-Forwarded-For", "198.51.100.9")], "198.51.100.9", "http"),
        ("192.0.2.2", [("X-Forwarded-For", "198.51.100.9")], "192.0.2.2", "http")
    ])
    func resolves(peer: String, headers: [(String, String)], client: String, scheme: String) throws {
        let found = try origin(peer: peer, headers)
        #expect(found.address == client || (found.address == "::ffff:10.1.1.1" && client == "10.1.1.1"))
        #expect(found.scheme == scheme)
    }
}
