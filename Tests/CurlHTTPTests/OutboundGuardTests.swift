import CurlHTTP
import Foundation
import OutboundPolicy
import Testing

/// A resolver with fixed answers, standing in for DNS (including hostile DNS).
struct FixedResolver: HostResolver {
    let answers: [String: [String]]

    func addresses(of host: String) async throws -> [String] {
        guard let addresses = answers[host] else { throw OutboundRefusal("\(host) does not resolve") }
        return addresses
    }
}

/// API.md §11.2: every hostile form is refused before any connection; public destinations pass,
/// pinned to the address that was checked; redirects are checked hop by hop.
@Suite struct OutboundGuardTests {
    static let resolver = FixedResolver(answers: [
        "example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
        "127.0.0.1.nip.io": ["127.0.0.1"],
        "metadata.test": ["169.254.169.254"],
        "mixed.test": ["93.184.215.14", "10.0.0.5"],
        "mixed6.test": ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "::1"],
        "mapped.test": ["::ffff:192.168.0.1"],
        "nat64.test": ["64:ff9b::a00:1"],
        "cgnat.test": ["100.100.100.100"],
        "internal-only.test": ["10.1.1.1"],
        "receiver.test": ["127.0.0.1"],
        "empty.test": []
    ])

    static let hostile: [String] = [
        // Schemes and credentials.
        "file:///etc/passwd", "ftp://example.com/", "gopher://example.com/_GET", "dict://example.com:11211/", "javascript:alert(1)",
        "http://user:pass@example.com/", "http://example.com@127.0.0.1/", "http://:@example.com/",
        // Local names.
        "http://localhost/", "http://LOCALHOST:80/", "http://api.localhost/", "http://intranet/", "http://printer.local/",
        "http://db.internal/", "http://router.home.arpa/", "http://example.com./",
        // Numeric hosts not written as a canonical dotted quad.
        "http://127.1/", "http://0x7f.0.0.1/", "http://0177.0.0.1/", "http://2130706433/", "http://0x7f000001/",
        "http://127.0.0.01/", "http://%31%32%37.0.0.1/",
        // Refused IPv4 ranges.
        "http://127.0.0.1/", "http://0.0.0.0/", "http://10.0.0.1/", "http://172.16.5.4/", "http://172.31.255.255/",
        "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/", "http://198.18.0.1/",
        "http://192.0.2.1/", "http://198.51.100.7/", "http://203.0.113.9/", "http://224.0.0.1/", "http://240.0.0.1/",
        "http://255.255.255.255/", "http://192.0.0.170/",
        // IPv6, and IPv4 inside IPv6.
        "http://[::1]/", "http://[::]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[::ffff:169.254.169.254]/",
        "http://[::ffff:0:7f00:1]/", "http://[::127.0.0.1]/", "http://[64:ff9b::a9fe:a9fe]/", "http://[2002:7f00:1::]/",
        "http://[2002:a9fe:a9fe::1]/", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "http://[fe80::1]/",
        "http://[fe80::1%25eth0]/", "http://[fc00::1]/", "http://[fd12:3456::1]/", "http://[ff02::1]/", "http://[2001:db8::1]/",
        "http://[fec0::1]/", "http://[100::1]/",
        // Ports.
        "http://example.com:8080/", "https://example.com:22/", "http://example.com:0/", "https://example.com:443@10.0.0.1/",
        // Hostile DNS: a name for an internal address, or public and internal answers mixed.
        "http://127.0.0.1.nip.io/", "http://metadata.test/", "http://mixed.test/", "http://mixed6.test/", "http://mapped.test/",
        "http://nat64.test/", "http://cgnat.test/", "http://empty.test/", "http://nowhere.test/",
        // Not plain URLs.
        "http://exa mple.com/", "http://example.com/\u{0}", "http://ex\u{00e4}mple.com/", ""
    ]

    @Test func everyHostileURLIsRefusedBeforeAnyConnection() async throws {
        #expect(Self.hostile.count >= 40)
        let check = OutboundGuard(resolver: Self.resolver)
        let client = CurlClient()
        for url in Self.hostile {
            do {
                let destination = try await check.check(url)
                Issue.record("\(url) was allowed: \(destination)")
            } catch is OutboundRefusal {
            }
            // Through the client too: a refusal, never a connection error (nothing was tried).
            do {
                _ = try await client.send(
                    .init(.get, url, connectTimeout: .milliseconds(200), timeout: .milliseconds(500)), guardedBy: check)
                Issue.record("\(url) was fetched")
            } catch is OutboundRefusal {
            } catch {
                Issue.record("\(url) reached the network: \(error)")
            }
        }
        client.shutdown()
    }

    @Test func publicDestinationsPassPinnedToACheckedAddress() async throws {
        let check = OutboundGuard(resolver: Self.resolver)
        let named = try await check.check("HTTPS://Example.COM/a/b?c=d#fragment")
        #expect(named.url == "https://example.com/a/b?c=d")
        #expect(named.bareHost == "example.com" && named.port == 443 && named.address == "93.184.215.14")
        #expect(try await check.check("http://8.8.8.8/").address == "8.8.8.8")
        #expect(try await check.check("http://[2606:4700:4700::1111]/").port == 80)
        // NAT64 and 6to4 of public addresses are public.
        #expect(AddressRules.refusal("64:ff9b::808:808") == nil)
        #expect(AddressRules.refusal("2002:808:808::1") == nil)
        #expect(AddressRules.refusal("172.32.0.1") == nil)
        #expect(AddressRules.refusal("100.128.0.1") == nil)
    }

    @Test func allowedHostsSkipOnlyThePortAndAddressRules() async throws {
        try await withLocalServer(testRoutes()) { port in
            let check = OutboundGuard(allowHosts: ["receiver.test:\(port)", "internal-only.test"], resolver: Self.resolver)
            let client = CurlClient()
            // The pin takes libcurl to the checked address; the name never reaches DNS.
            let answer = try await client.send(.init(.get, "http://receiver.test:\(port)/hello"), guardedBy: check)
            #expect(answer.text == "hello")
            #expect(try await check.check("http://internal-only.test:9000/").address == "10.1.1.1")
            // Every other rule still applies to them.
            for url in ["http://user@receiver.test:\(port)/", "ftp://receiver.test:\(port)/", "http://receiver.test:\(port + 1)/"] {
                await #expect(throws: OutboundRefusal.self, "\(url)") { try await check.check(url) }
            }
            client.shutdown()
        }
    }

    @Test func aRedirectIntoARefusedAddressIsStoppedAtThatHop() async throws {
        try await withLocalServer(redirectingRoutes()) { port in
            let check = OutboundGuard(allowHosts: ["receiver.test:\(port)"], resolver: Self.resolver)
            let client = CurlClient()
            let followed = try await client.send(.init(.get, "http://receiver.test:\(port)/hop/2"), guardedBy: check)
            #expect(followed.text == "landed")
            for path in ["/to-internal", "/to-metadata-name", "/hop/9"] {
                await #expect(throws: OutboundRefusal.self, "\(path)") {
                    try await client.send(.init(.get, "http://receiver.test:\(port)\(path)"), guardedBy: check)
                }
            }
            client.shutdown()
        }
    }
}
