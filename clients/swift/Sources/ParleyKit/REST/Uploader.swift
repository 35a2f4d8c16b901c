import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Uploads a request body with progress reports, and cancels the upload when the calling task is
/// cancelled.
enum Uploader {
    static func upload(_ request: URLRequest, body: Data, session: URLSession, progress: UploadProgress?) async throws -> (
        Data, URLResponse
    ) {
        let delegate = ProgressDelegate(progress: progress)
        let uploads = URLSession(configuration: session.configuration, delegate: delegate, delegateQueue: nil)
        defer { uploads.finishTasksAndInvalidate() }
        let box = TaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = uploads.uploadTask(with: request, from: body) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }
}

private final class ProgressDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    let progress: UploadProgress?

    init(progress: UploadProgress?) {
        self.progress = progress
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        progress?(totalBytesSent, totalBytesExpectedToSend)
    }
}

/// The running upload task, for cancellation from another thread (cancelled before it exists:
/// cancelled as soon as it does).
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var cancelled = false

    func set(_ task: URLSessionTask) {
        let cancelNow = lock.withLock {
            self.task = task
            return cancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}
