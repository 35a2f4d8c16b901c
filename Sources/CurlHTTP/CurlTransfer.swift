import CCurl
import Synchronization

/// One request and what it collects, on an easy handle the client's loop thread lends it while it
/// runs. Created by the caller's task, then touched only by the loop thread; what it allocated is
/// freed when it goes, on every path (done, failed, cancelled, shut down).
final class CurlTransfer: @unchecked Sendable {
    /// Easy handles lent to transfers, per client (the leak check of the tests reads it).
    final class Count: Sendable {
        let value = Atomic<Int>(0)
    }

    let id: Int
    private let count: Count
    let request: OutboundRequest
    let continuation: CheckedContinuation<OutboundResponse, any Error>
    /// Set by the loop thread from `start` until `finish`.
    private(set) var handle: UnsafeMutableRawPointer!
    private var lists: [UnsafeMutablePointer<curl_slist>] = []
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    var body: [UInt8] = []
    /// Bytes of the request's body libcurl has read (`sendBody`).
    var sent = 0
    var headers: [(name: String, value: String)] = []
    var exceededLimit = false
    var reachedStop = false

    init(id: Int, request: OutboundRequest, continuation: CheckedContinuation<OutboundResponse, any Error>, count: Count) {
        self.count = count
        self.id = id
        self.request = request
        self.continuation = continuation
        errorBuffer.initialize(to: 0)
    }

    deinit {
        for list in lists { curl_slist_free_all(list) }
        errorBuffer.deallocate()
    }

    /// The loop thread lends the transfer a handle (reset, its options all default).
    func attach(_ handle: UnsafeMutableRawPointer) {
        self.handle = handle
        count.value.add(1, ordering: .relaxed)
    }

    /// The loop thread takes the handle back (removed from the multi handle).
    func detach() -> UnsafeMutableRawPointer {
        defer {
            handle = nil
            count.value.subtract(1, ordering: .relaxed)
        }
        return handle
    }

    /// Sets every option of the request; an error names what libcurl refused.
    func configure(userAgent: String) throws(OutboundError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        try set(CURLOPT_URL, request.url)
        // Signals are not safe in a threaded process; timeouts still work without them (libcurl
        // is built with the threaded resolver).
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, request.maxRedirects > 0 ? 1 : 0)
        try set(CURLOPT_MAXREDIRS, request.maxRedirects)
        try set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.connectTimeout))
        try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout))
        // Aborts early when the length is announced; the write callback enforces it otherwise.
        if !request.keepsTruncatedAnswer {
            try check(parley_curl_easy_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxResponseBytes)))
        }
        try set(CURLOPT_USERAGENT, userAgent)
        // No proxy from the environment (http_proxy and the like): a proxy would resolve the
        // host itself, past the guard's pinned address.
        try set(CURLOPT_PROXY, "")
        try set(CURLOPT_TCP_KEEPALIVE, 1)
        if request.multiplexes {
            try set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
            try set(CURLOPT_PIPEWAIT, 1)
        }
        if let authorities = request.trustedAuthorities {
            try set(CURLOPT_CAINFO, authorities.file)
            try set(CURLOPT_CAPATH, authorities.systemDirectory)
        }
        try check(parley_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        try check(parley_curl_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, Self.receiveBody))
        try check(parley_curl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        try check(parley_curl_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, Self.receiveHeader))
        try check(parley_curl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context))
        switch request.method {
        case .get: try set(CURLOPT_HTTPGET, 1)
        case .head: try set(CURLOPT_NOBODY, 1)
        case .post, .put, .delete: try set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
        var headerLines = request.headers.map { "\($0.name): \($0.value)" }
        if let body = request.body {
            try check(parley_curl_easy_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            if body.count <= Self.copiedBodyBytes {
                // Copied by libcurl, so the bytes need not outlive this call.
                try body.withUnsafeBufferPointer { bytes throws(OutboundError) in
                    try check(
                        parley_curl_easy_setopt_pointer(
                            handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress)))
                }
            } else {
                // A large body (an object store's part: 8 MiB) is read from the request as it is
                // sent, not copied: a copy per part held the part twice, and the two sizes of
                // allocation left glibc keeping one of them (issue 50.11).
                try set(CURLOPT_POST, 1)
                try check(parley_curl_easy_setopt_data_callback(handle, CURLOPT_READFUNCTION, Self.sendBody))
                try check(parley_curl_easy_setopt_pointer(handle, CURLOPT_READDATA, context))
                try check(parley_curl_easy_setopt_seek_callback(handle, CURLOPT_SEEKFUNCTION, Self.rewindBody))
                try check(parley_curl_easy_setopt_pointer(handle, CURLOPT_SEEKDATA, context))
            }
            // libcurl would otherwise wait up to a second for a `100 Continue` before a body over 1 KiB.
            headerLines.append("Expect:")
        }
        if let list = makeList(headerLines) { try check(parley_curl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list)) }
        let pins = request.pins.map { pin in
            "\(pin.host):\(pin.port):" + (pin.address.contains(":") ? "[\(pin.address)]" : pin.address)
        }
        if let list = makeList(pins) { try check(parley_curl_easy_setopt_slist(handle, CURLOPT_RESOLVE, list)) }
    }

    /// The answer, or what went wrong, once libcurl reports the transfer done.
    func outcome(_ code: CURLcode) -> Result<OutboundResponse, OutboundError> {
        let truncated =
            (code == CURLE_WRITE_ERROR && reachedStop)
            || (request.keepsTruncatedAnswer && (code == CURLE_FILESIZE_EXCEEDED || (code == CURLE_WRITE_ERROR && exceededLimit)))
        guard code == CURLE_OK || truncated else { return .failure(error(code)) }
        var status = 0
        _ = parley_curl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return .success(OutboundResponse(status: status, headers: headers, body: body))
    }

    private func error(_ code: CURLcode) -> OutboundError {
        let message = errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return .timedOut
        case CURLE_FILESIZE_EXCEEDED: return .responseTooLarge(limit: request.maxResponseBytes)
        case CURLE_WRITE_ERROR where exceededLimit: return .responseTooLarge(limit: request.maxResponseBytes)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: return .couldNotConnect(message)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: return .invalidURL(message)
        default: return .failed(code: Int(code.rawValue), message: message)
        }
    }

    /// Bodies up to this are handed to libcurl as a copy; larger ones are read as they are sent.
    static let copiedBodyBytes = 64 * 1024

    private func makeList(_ lines: [String]) -> UnsafeMutablePointer<curl_slist>? {
        guard !lines.isEmpty else { return nil }
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let longer = curl_slist_append(list, line) else { break }
            list = longer
        }
        if let list { lists.append(list) }
        return list
    }

    private func set(_ option: CURLoption, _ value: Int) throws(OutboundError) {
        try check(parley_curl_easy_setopt_long(handle, option, value))
    }

    private func set(_ option: CURLoption, _ value: String) throws(OutboundError) {
        try check(parley_curl_easy_setopt_string(handle, option, value))
    }

    private func check(_ code: CURLcode) throws(OutboundError) {
        guard code == CURLE_OK else { throw error(code) }
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}
