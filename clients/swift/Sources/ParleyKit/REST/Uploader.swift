import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads a request body with progress reports, and cancels the upload when the calling task is
/// cancelled. The task reports to a delegate rather than a completion handler: on Linux, a task
/// with a completion handler tells its delegate nothing of the bytes sent.
enum Uploader {
    static func upload(_ request: URLRequest, body: Data, session: URLSession, progress: UploadProgress?) async throws -> (
        Data, URLResponse
    ) {
        let delegate = UploadDelegate(progress: progress)
        let uploads = URLSession(configuration: session.configuration, delegate: delegate, delegateQueue: nil)
        defer { uploads.finishTasksAndInvalidate() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.start(uploads.uploadTask(with: request, from: body), continuation)
            }
        } onCancel: {
            delegate.cancel()
        }
    }
}

private final class UploadDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let progress: UploadProgress?
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
    private var received = Data()
    private var response: URLResponse?
    private var cancelled = false

    init(progress: UploadProgress?) {
        self.progress = progress
    }

    func start(_ task: URLSessionTask, _ continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
        let cancelNow = lock.withLock {
            self.task = task
            self.continuation = continuation
            return cancelled
        }
        if cancelNow { task.cancel() }
        task.resume()
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        progress?(totalBytesSent, totalBytesExpectedToSend)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock { self.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { received.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, data, response) = lock.withLock {
            defer { self.continuation = nil }
            return (self.continuation, received, self.response ?? task.response)
        }
        if let error {
            continuation?.resume(throwing: error)
        } else if let response {
            continuation?.resume(returning: (data, response))
        } else {
            continuation?.resume(throwing: URLError(.badServerResponse))
        }
    }
}
