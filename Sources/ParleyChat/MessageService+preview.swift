import ParleyCore
import ParleyLinkPreviews
import ParleyStore

/// Link previews of user messages (API.md §11.1): made after the send commits (never delaying
/// it), stored on the message and announced with `message_updated`.
extension MessageService {
    /// After the commit of a send or an edit of `text`: the preview of its first URL, if any.
    func previewAfterCommit(_ text: String, _ channelURL: String, _ messageID: Int64, _ repositories: Repositories) {
        guard let previewer, let url = previewer.firstURL(in: text) else { return }
        updateAfterCommit(channelURL, messageID, repositories) {
            guard let tag = await previewer.preview(url) else { return nil }
            return { repositories, now in try repositories.messages.setOGTag(messageID, tag, source: text, now: now) }
        }
    }
}
