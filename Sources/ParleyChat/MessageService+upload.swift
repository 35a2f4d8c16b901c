import ParleyCore
import ParleyFiles
import ParleyStore

/// What an upload request carries besides the file's bytes (API.md §5.1), read by the transport
/// while the file streams into storage.
public struct FileMessageForm: Sendable {
    /// The FILE message to send; its `file` is filled in from the stored upload.
    public var message: NewMessage
    public var thumbnailBoxes: [ThumbnailBox]
    public var fileName: String
    /// The type the request gives (its `file_type`, else the file part's own type); nil lets the
    /// sniffed type, or `application/octet-stream`, stand.
    public var fileType: String?
    public var requireAuth: Bool

    public init(message: NewMessage, thumbnailBoxes: [ThumbnailBox], fileName: String, fileType: String?, requireAuth: Bool) {
        self.message = message
        self.thumbnailBoxes = thumbnailBoxes
        self.fileName = fileName
        self.fileType = fileType
        self.requireAuth = requireAuth
    }
}

extension FileMessageForm {
    /// The FILE message, holding the stored upload: the type the request gave, else the sniffed one.
    func message(holding stored: StoredUpload) -> NewMessage {
        var new = message
        new.file = FileAttachment(
            fileID: stored.fileID, name: fileName, type: fileType ?? stored.detectedType ?? "application/octet-stream",
            size: stored.size, requireAuth: requireAuth, thumbnails: stored.thumbnails
        )
        return new
    }
}

/// An upload as the transport received it: the file (streamed into storage, not yet finished)
/// and the rest of the form.
public struct ReceivedFile: Sendable {
    public let upload: FileUpload
    public let form: FileMessageForm

    public init(upload: FileUpload, form: FileMessageForm) {
        self.upload = upload
        self.form = form
    }
}

extension MessageService {
    /// Sends an uploaded file as a FILE message: a session user is authorised before the file is
    /// read (so a refused sender does not first transfer it), `receive` streams the request into
    /// storage (and leaves nothing behind when it throws), thumbnails are made, and the message
    /// is sent. A file that does not end up in a message is deleted.
    public func sendFile(
        _ caller: Caller, _ kind: ChannelKind, _ channelURL: String, receive: () async throws -> ReceivedFile
    ) async throws -> (message: Message, created: Bool) {
        if let userID = caller.userID {
            let now = clock.nowMillis
            _ = try await store.read { try Self.authorizeSend(caller, kind, channelURL, senderID: userID, now: now, $0) }
        }
        let received = try await receive()
        let form = received.form
        let stored = try await files.finish(received.upload, thumbnailBoxes: form.thumbnailBoxes, owner: form.message.senderID ?? "")
        do {
            return try await send(caller, kind, channelURL, form.message(holding: stored))
        } catch {
            await files.discard(stored.fileID)
            throw error
        }
    }
}
