import CCurl

/// What libcurl calls during a transfer: the request's body out, the response's headers and
/// body in (the latter bounded by `maxResponseBytes`, and stopped at `stopAfter`).
extension CurlTransfer {
    /// Gives libcurl the next bytes of the request's body.
    static let sendBody: parley_curl_data_callback = { buffer, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        guard let buffer, let body = transfer.request.body else { return 0 }
        let length = min(size * count, body.count - transfer.sent)
        body.withUnsafeBytes { bytes in
            UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + transfer.sent, byteCount: length)
        }
        transfer.sent += length
        return length
    }

    /// Moves where `sendBody` reads (libcurl rewinds a body it sends again on a new connection).
    static let rewindBody: parley_curl_seek_callback = { context, offset, origin in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        guard origin == SEEK_SET, offset >= 0, offset <= transfer.request.body?.count ?? 0 else { return CURL_SEEKFUNC_CANTSEEK }
        transfer.sent = Int(offset)
        return CURL_SEEKFUNC_OK
    }

    static let receiveBody: parley_curl_data_callback = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        let room = transfer.request.maxResponseBytes - transfer.body.count
        guard length <= room else {
            // What fits is kept (for a truncated answer); anything but `length` makes libcurl
            // abort the transfer.
            if let data, room > 0 { transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: room)) }
            transfer.exceededLimit = true
            return 0
        }
        guard let data else { return length }
        let searchFrom = max(0, transfer.body.count - (transfer.request.stopAfter?.count ?? 0))
        transfer.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        if let marker = transfer.request.stopAfter, transfer.body[searchFrom...].containsASCIICaseInsensitive(marker) {
            transfer.reachedStop = true
            return 0
        }
        return length
    }

    static let receiveHeader: parley_curl_data_callback = { data, size, count, context in
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
        let length = size * count
        guard let data else { return length }
        // Parsed as bytes: every response's headers pass here, and String's Character-level
        // scanning and trimming were a tenth of a request's cost.
        let line = UnsafeRawBufferPointer(start: data, count: length)
        // Each response of a redirect chain (or a 100 Continue) starts with its status line.
        if line.starts(with: "HTTP/".utf8) {
            transfer.headers = []
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            var start = colon + 1
            var end = line.count
            while start < end, line[start] == UInt8(ascii: " ") || line[start] == UInt8(ascii: "\t") { start += 1 }
            while end > start, [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")].contains(line[end - 1]) {
                end -= 1
            }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<colon]), as: UTF8.self)
            let value = String(decoding: UnsafeRawBufferPointer(rebasing: line[start..<end]), as: UTF8.self)
            transfer.headers.append((name, value))
        }
        return length
    }
}

extension ArraySlice<UInt8> {
    /// Whether `marker` (lower-case ASCII) occurs here, in any case.
    func containsASCIICaseInsensitive(_ marker: [UInt8]) -> Bool {
        guard !marker.isEmpty, count >= marker.count else { return false }
        var start = startIndex
        while start + marker.count <= endIndex {
            var index = 0
            while index < marker.count, self[start + index] | 0x20 == marker[index] | 0x20 { index += 1 }
            if index == marker.count { return true }
            start += 1
        }
        return false
    }
}
