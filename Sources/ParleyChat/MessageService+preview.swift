import ParleyCore
import ParleyLinkPreviews
import ParleyStore

/// Link previews of user messages (API.md §11.1): made after the send commits (never delaying
/// it), stored on the message and announced with `message_updated`.
extension MessageService {
    /// After the commit of a send or an edit of `text`: the preview of its first URL, if any.
    func previewAfterCommit(_ text: String, _ channelURL: String, _ messageID: Int64, _ repositories: Repositories) {
        guard let previewer, let url = previewer.firstURL(in: text) else { return }
        let (store, clock) = (store, clock)
        repositories.afterCommit {
            Task {
                guard let tag = await previewer.preview(url) else { return }
                let now = clock.nowMillis
                try? await store.transaction { repositories in
                    guard try repositories.messages.setOGTag(messageID, tag, source: text, now: now),
                        let message = try repositories.messages.find(channelURL, messageID, viewerID: nil)
                    else { return }
                    ChannelEvents.message(.messageUpdated, try MessageDetails.attach(message, repositories), repositories)
                }
            }
        }
    }
}
