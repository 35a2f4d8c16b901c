#if canImport(Network)
    import Foundation
    import Network

    /// Apple platforms: tells when a network path becomes usable again (Wi-Fi back, out of a tunnel),
    /// so that a reconnection waiting out its backoff tries at once.
    final class ReachabilityMonitor: @unchecked Sendable {
        private let monitor = NWPathMonitor()

        init(onAvailable: @escaping @Sendable () -> Void) {
            monitor.pathUpdateHandler = { path in
                if path.status == .satisfied { onAvailable() }
            }
            monitor.start(queue: DispatchQueue(label: "ParleyKit.reachability"))
        }

        deinit { monitor.cancel() }
    }
#endif
