import Foundation

/// Resolves a host name to all its addresses (A and AAAA), as text.
public protocol HostResolver: Sendable {
    func addresses(of host: String) async throws -> [String]
}

/// The system's resolver (`getaddrinfo`), called on a thread outside Swift's cooperative pool,
/// since it blocks.
public struct SystemResolver: HostResolver {
    private static let queue = DispatchQueue(label: "parley-resolver", attributes: .concurrent)

    public init() {}

    public func addresses(of host: String) async throws -> [String] {
        try await withCheckedThrowingContinuation { continuation in
            Self.queue.async {
                var hints = addrinfo()
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
                hints.ai_family = AF_UNSPEC
                var list: UnsafeMutablePointer<addrinfo>?
                let status = getaddrinfo(host, nil, &hints, &list)
                guard status == 0 else {
                    return continuation.resume(
                        throwing: OutboundRefusal("\(host) does not resolve (\(String(cString: gai_strerror(status))))"))
                }
                defer { freeaddrinfo(list) }
                var addresses: [String] = []
                var entry = list
                while let current = entry {
                    var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                    if getnameinfo(
                        current.pointee.ai_addr, current.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0
                    {
                        let address = String(cString: text)
                        if !addresses.contains(address) { addresses.append(address) }
                    }
                    entry = current.pointee.ai_next
                }
                continuation.resume(returning: addresses)
            }
        }
    }
}
