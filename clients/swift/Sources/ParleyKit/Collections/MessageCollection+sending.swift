import Foundation

/// A message this device is sending through a `MessageCollection`, or whose send failed: shown
/// after the channel's messages until the server has it (then it is in `messages`).
public struct PendingMessage: Sendable, Identifiable, Equatable {
    public enum Content: Sendable {
        case user(UserMessageParams)
        case file(FileMessageParams)
    }

    /// The send's dedup id: resending it never makes a second message.
    public let id: String
    public let content: Content
    /// When this device first sent it (ms, its own clock).
    public let createdAt: Int64
    /// Why the last send failed; nil while sending.
    public internal(set) var failure: ParleyKitError?

    public var isFailed: Bool { failure != nil }

    /// Whether sending again may succeed: the failure was on the way or the server's trouble,
    /// not a refusal (a ban, a mute, a frozen channel, a message too long).
    public var isResendable: Bool {
        guard let failure else { return false }
        return failure.status == 0 || failure.status == 429 || failure.status >= 500
    }

    public static func == (lhs: PendingMessage, rhs: PendingMessage) -> Bool {
        lhs.id == rhs.id && lhs.failure == rhs.failure
    }
}

extension MessageCollection {
    /// Sends a user message: pending at once (a `.pending` change), then in `messages` when the
    /// server has it; when the send fails it stays, failed, for `resend` or `removeFailed`.
    @discardableResult
    public func send(_ params: UserMessageParams) async throws -> Message {
        var params = params
        let id = Self.dedupID(&params.dedupId)
        return try await deliver(PendingMessage(id: id, content: .user(params), createdAt: Self.now()), progress: nil)
    }

    /// Sends a file message, as `send`; cancelling the calling task cancels the upload (the
    /// message then stays failed).
    @discardableResult
    public func sendFile(_ params: FileMessageParams, progress: UploadProgress? = nil) async throws -> Message {
        var params = params
        let id = Self.dedupID(&params.dedupId)
        return try await deliver(PendingMessage(id: id, content: .file(params), createdAt: Self.now()), progress: progress)
    }

    /// The send's dedup id: the params' own, or a new one written into them.
    private static func dedupID(_ field: inout String?) -> String {
        let id = field ?? UUID().uuidString
        field = id
        return id
    }

    /// Sends a failed message again, with its dedup id: if the first send did reach the server
    /// after all, this answers with that message instead of making a second one.
    @discardableResult
    public func resend(_ id: String, progress: UploadProgress? = nil) async throws -> Message {
        guard let failed = pendingMessages.first(where: { $0.id == id && $0.isFailed }) else {
            throw ParleyKitError(code: 0, status: 0, message: "No failed message \(id) to resend.")
        }
        return try await deliver(failed, progress: progress)
    }

    /// Gives up a failed message.
    public func removeFailed(_ id: String) {
        guard pendingMessages.contains(where: { $0.id == id && $0.isFailed }) else { return }
        pendingMessages.removeAll { $0.id == id }
        continuation.yield(.pendingRemoved(id))
    }

    private func deliver(_ message: PendingMessage, progress: UploadProgress?) async throws -> Message {
        var pending = message
        pending.failure = nil
        keep(pending)
        do {
            let sent =
                switch pending.content {
                case .user(let params): try await client.messages.sendUserMessage(channelURL, params, channelType: channelType)
                case .file(let params):
                    try await client.messages.sendFileMessage(channelURL, params, channelType: channelType, progress: progress)
                }
            pendingMessages.removeAll { $0.id == pending.id }
            continuation.yield(.pendingRemoved(pending.id))
            if !hasNext { merge([sent]) }
            return sent
        } catch {
            let failure = error as? ParleyKitError ?? .transport(error)
            pending.failure = failure
            keep(pending)
            throw failure
        }
    }

    /// Adds the pending message, or puts it in the place of its earlier state.
    private func keep(_ pending: PendingMessage) {
        if let index = pendingMessages.firstIndex(where: { $0.id == pending.id }) {
            pendingMessages[index] = pending
        } else {
            pendingMessages.append(pending)
        }
        continuation.yield(.pending(pending))
    }

    private static func now() -> Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
