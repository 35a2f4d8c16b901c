import ParleyCore
import ParleyLinkPreviews
import ParleyStore

/// Link previews of user messages (API.md §11.1): made after the send commits (never delaying
/// it), in the sender's turn on the `PreviewQueue` (one user's links cannot hold everyone's
/// previews back), stored on the message and announced with `message_updated`.
extension MessageService {
    /// After the commit of a send or an edit of `text` by `userID`: the preview of its first URL, if any.
    func previewAfterCommit(_ text: String, by userID: String, _ channelURL: String, _ messageID: Int64, _ repositories: Repositories) {
        guard let previewer, let previews, let url = previewer.firstURL(in: text) else { return }
        let service = self
        repositories.afterCommit {
            previews.submit(for: userID) {
                guard let tag = await previewer.preview(url) else { return }
                try await service.apply(
                    { repositories, now in try repositories.messages.setOGTag(messageID, tag, source: text, now: now) },
                    channelURL, messageID)
            }
        }
    }
}
