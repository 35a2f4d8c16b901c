import Foundation

extension MessageCollection {
    /// What the event stream could not bring: the messages sent meanwhile (at the live end), then
    /// the edits and deletes (a group channel's changelog; an open channel has none, so the
    /// loaded window is read again).
    func catchUp() async throws {
        if !hasNext {
            while let newest = messages.last {
                let page = try await window(after: newest.messageId, limit: 200)
                merge(page)
                if page.count < 200 { break }
            }
        }
        switch channelType {
        case .group: try await readChangelog()
        case .open: try await rereadWindow()
        }
        syncedAt = Int64(Date().timeIntervalSince1970 * 1000) - 60_000
    }

    private func readChangelog() async throws {
        var token: String?
        repeat {
            let log = try await client.messages.changelogs(channelURL, since: syncedAt - 1_000, token: token)
            replace(log.updated)
            remove(log.deleted)
            token = log.hasMore ? log.next : nil
        } while token != nil
    }

    /// Reads the held messages again from the oldest on: changed ones replace theirs, those the
    /// server no longer has are removed.
    private func rereadWindow() async throws {
        guard let oldest = messages.first, let newest = messages.last else { return }
        let upTo = (newest.createdAt, newest.messageId)
        var found: [Message] = []
        // From the oldest's time, not its id: it may be the one deleted.
        var params = MessageListParams(point: .timestamp(oldest.createdAt), previousLimit: 0, nextLimit: 200)
        while true {
            let page = try await client.messages.list(channelURL, params, channelType: channelType)
            found += page
            guard page.count == 200, let last = page.last, (last.createdAt, last.messageId) < upTo else { break }
            params = MessageListParams(point: .messageId(last.messageId), previousLimit: 0, nextLimit: 200)
            params.inclusive = false
        }
        let present = Set(found.map(\.messageId))
        replace(found)
        remove(messages.filter { ($0.createdAt, $0.messageId) <= upTo && !present.contains($0.messageId) }.map(\.messageId))
    }

    func window(after messageId: Int64, limit: Int) async throws -> [Message] {
        var params = MessageListParams(point: .messageId(messageId), previousLimit: 0, nextLimit: limit)
        params.inclusive = false
        return try await client.messages.list(channelURL, params, channelType: channelType)
    }
}
