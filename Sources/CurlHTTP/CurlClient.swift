import CCurl
import Foundation
import Synchronization

/// A small async HTTP client over libcurl's multi interface: one multi handle, driven by one
/// thread of its own, runs every transfer, so Swift's cooperative threads never block on the
/// network and connections are kept alive and reused across requests.
///
/// A request is queued and the thread woken (`curl_multi_wakeup`); the thread adds it, runs
/// libcurl until something is done (`curl_multi_poll`), and resumes the awaiting task. Cancelling
/// that task removes the transfer at once. Easy handles are reset and reused (up to
/// `maxIdleHandles` kept): making one per request was a fifth of a push's CPU, in `malloc` and
/// `free` of libcurl's buffers.
public final class CurlClient: Sendable {
    private struct Queue {
        var adding: [CurlTransfer] = []
        var cancelling: [Int] = []
        var lastID = 0
        /// Transfers queued or running, by id.
        var live = Set<Int>()
        var stopping = false
    }

    /// Used by the loop thread only, apart from `curl_multi_wakeup`, which libcurl allows from
    /// any thread.
    nonisolated(unsafe) private let multi: UnsafeMutableRawPointer
    /// Reset handles waiting for the next transfer; the loop thread's only.
    nonisolated(unsafe) private var idleHandles: [UnsafeMutableRawPointer] = []
    private static let maxIdleHandles = 256
    private let queue = Mutex(Queue())
    private let userAgent: String

    /// `maxConnectionsPerHost` bounds what one destination gets at once (more requests wait in
    /// libcurl's queue); `maxCachedConnections` the idle connections kept for reuse.
    public init(userAgent: String = "Parley", maxConnectionsPerHost: Int = 32, maxCachedConnections: Int = 64) {
        Self.initializeLibrary
        guard let multi = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        self.multi = multi
        self.userAgent = userAgent
        _ = parley_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, maxConnectionsPerHost)
        _ = parley_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, maxCachedConnections)
        let thread = Thread { [self] in run() }
        thread.name = "parley-curl"
        thread.start()
    }

    /// `curl_global_init` is not thread-safe: once, before the first handle.
    private static let initializeLibrary: Void = { _ = parley_curl_global_init() }()

    /// This client's easy handles alive: 0 when nothing runs, or something leaked.
    public var liveHandles: Int { handleCount.value.load(ordering: .relaxed) }
    private let handleCount = CurlTransfer.Count()

    /// Sends the request and returns the answer (any status); throws `OutboundError` when there
    /// is none, and `CancellationError` when the calling task is cancelled meanwhile.
    public func send(_ request: OutboundRequest) async throws -> OutboundResponse {
        try await traced(request) { try await perform($0) }
    }

    private func perform(_ request: OutboundRequest) async throws -> OutboundResponse {
        let id = queue.withLock { queue in
            queue.lastID += 1
            return queue.lastID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let transfer = CurlTransfer(id: id, request: request, continuation: continuation, count: handleCount)
                // Checked under the lock the cancellation handler takes: either the handler
                // finds the transfer live, or the task's cancelled flag (set before the handler
                // runs) is seen here.
                let refusal: (any Error)? = queue.withLock { queue in
                    if queue.stopping || Task.isCancelled { return CancellationError() }
                    queue.live.insert(id)
                    queue.adding.append(transfer)
                    return nil
                }
                if let refusal { return continuation.resume(throwing: refusal) }
                curl_multi_wakeup(multi)
            }
        } onCancel: {
            let queued = queue.withLock { queue in
                guard queue.live.contains(id) else { return false }
                queue.cancelling.append(id)
                return true
            }
            if queued { curl_multi_wakeup(multi) }
        }
    }

    /// Ends every transfer (their callers get `CancellationError`) and stops the thread.
    public func shutdown() {
        // Only the first call wakes the thread: after that the multi handle may be gone.
        let first = queue.withLock { queue in
            defer { queue.stopping = true }
            return !queue.stopping
        }
        if first { curl_multi_wakeup(multi) }
    }

    // MARK: The loop thread

    private func run() {
        var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        while true {
            let (adding, cancelling, stopping) = queue.withLock { queue in
                defer {
                    queue.adding = []
                    queue.cancelling = []
                }
                return (queue.adding, queue.cancelling, queue.stopping)
            }
            for transfer in adding { start(transfer, into: &running) }
            for id in cancelling {
                guard let transfer = running.values.first(where: { $0.id == id }) else { continue }
                finish(transfer, .failure(CancellationError()), from: &running)
            }
            if stopping {
                for transfer in Array(running.values) { finish(transfer, .failure(CancellationError()), from: &running) }
                break
            }
            var stillRunning: Int32 = 0
            curl_multi_perform(multi, &stillRunning)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle, let transfer = running[handle] else {
                    continue
                }
                let outcome = transfer.outcome(parley_curl_message_result(message))
                finish(transfer, outcome.mapError { $0 as any Error }, from: &running)
            }
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        for handle in idleHandles { curl_easy_cleanup(handle) }
        idleHandles = []
        curl_multi_cleanup(multi)
    }

    private func start(_ transfer: CurlTransfer, into running: inout [UnsafeMutableRawPointer: CurlTransfer]) {
        guard let handle = idleHandles.popLast() ?? curl_easy_init() else {
            queue.withLock { _ = $0.live.remove(transfer.id) }
            return transfer.continuation.resume(throwing: OutboundError.failed(code: -1, message: "curl_easy_init failed"))
        }
        transfer.attach(handle)
        do {
            try transfer.configure(userAgent: userAgent)
        } catch {
            release(transfer.detach())
            queue.withLock { _ = $0.live.remove(transfer.id) }
            return transfer.continuation.resume(throwing: error)
        }
        let code = curl_multi_add_handle(multi, handle)
        guard code == CURLM_OK else {
            release(transfer.detach())
            queue.withLock { _ = $0.live.remove(transfer.id) }
            let message = String(cString: curl_multi_strerror(code))
            return transfer.continuation.resume(throwing: OutboundError.failed(code: Int(code.rawValue), message: message))
        }
        running[handle] = transfer
    }

    /// A handle back from a transfer: reset for the next one, or freed when enough wait.
    private func release(_ handle: UnsafeMutableRawPointer) {
        guard idleHandles.count < Self.maxIdleHandles else { return curl_easy_cleanup(handle) }
        curl_easy_reset(handle)
        idleHandles.append(handle)
    }

    /// Takes the transfer out of libcurl (its handle is freed with it) and resumes its caller.
    private func finish(
        _ transfer: CurlTransfer, _ outcome: Result<OutboundResponse, any Error>,
        from running: inout [UnsafeMutableRawPointer: CurlTransfer]
    ) {
        let handle = transfer.detach()
        curl_multi_remove_handle(multi, handle)
        running[handle] = nil
        release(handle)
        queue.withLock { _ = $0.live.remove(transfer.id) }
        transfer.continuation.resume(with: outcome)
    }
}
