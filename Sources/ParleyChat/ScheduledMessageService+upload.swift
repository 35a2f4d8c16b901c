import ParleyCore
import ParleyFiles
import ParleyStore

extension ScheduledMessageService {
    /// Schedules an uploaded file as a FILE message (API.md §13.3 with §5.1's form): a session
    /// user is authorised before the file is read, the file is stored and its thumbnails made now,
    /// and the scheduled message links it; its send at the time links it to the message. Until
    /// then no download serves it (no message holds it); the sweeper keeps it while the message
    /// is pending. A file that ends up in no scheduled message is deleted.
    public func createUpload(
        _ caller: Caller, _ channelURL: String, receive: () async throws -> (file: ReceivedFile, scheduledAt: Int64)
    ) async throws -> ScheduledMessage {
        if let userID = caller.userID {
            let now = clock.nowMillis
            _ = try await store.read { try MessageService.authorizeSend(caller, .group, channelURL, senderID: userID, now: now, $0) }
        }
        let (received, scheduledAt) = try await receive()
        let form = received.form
        do {
            try requireLead(scheduledAt, now: clock.nowMillis)
        } catch {
            received.upload.abort()
            throw error
        }
        let stored = try await files.finish(received.upload, thumbnailBoxes: form.thumbnailBoxes, owner: form.message.senderID ?? "")
        do {
            return try await create(caller, channelURL, form.message(holding: stored), at: scheduledAt)
        } catch {
            await files.discard(stored.fileID)
            throw error
        }
    }

    /// The uploaded file of a scheduled message that will not be sent (canceled or failed).
    func discardFile(of scheduled: ScheduledMessage) async {
        if let fileID = scheduled.content.file?.fileID { await files.discard(fileID) }
    }

    var files: FileService { delivery.messages.files }
}
